/* A class whose constant pool holds a marker the class agent rewrites: each
 * of its two environments puts its letter in the first '_' left, so the
 * string tells in which order they transformed the class. */
public class Marked {
    public static String mark() {
        return "JVMTIGEN_MARK__";
    }
}
