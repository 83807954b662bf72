/* The trivial program HotSpot runs with the conformance agent loaded. It
 * loads ConfMarked, which the agent's ClassFileLoadHook environments
 * transform, and prints the marker the defined class holds (a case line). */
public class Main {
    public static void main(String[] args) {
        System.out.println("cflh.final " + ConfMarked.mark());
    }
}
