/* The class the conformance agent's ClassFileLoadHook environments
 * transform (classes.c): each fills one slot of the marker. */
public class ConfMarked {
    public static String mark() {
        return "JVMTIGEN_CONF___";
    }
}
