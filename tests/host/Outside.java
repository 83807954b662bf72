/* A program outside host/interp.c's subset: it makes an object (`new`),
 * where the interpreter stops with a message naming the instruction and
 * its location (tests/host/test.sh). */
public class Outside {
    public static void main(String[] args) {
        System.out.println("before");
        Object o = new Object();
        System.out.println(o == null);
    }
}
