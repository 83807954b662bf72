/* The trivial program HotSpot runs with the conformance agent loaded. It
 * first calls ConfChain.a, which calls b, which calls c (the stacks cases
 * look at the main thread's stack at a breakpoint in c; the host runs the
 * same chain, host/programs.c), then builds the heap cases' graph (HeapMain,
 * which the host's -heap:5 models; the cases run at VMDeath), then loads
 * ConfMarked, which the agent's
 * ClassFileLoadHook environments transform, and prints the marker the
 * defined class holds (a case line). */
public class Main {
    // synchronized: the main thread holds class Main's monitor while it runs
    // (the stacks cases' monitor cases; host/monitors.c models the same)
    public static synchronized void main(String[] args) {
        ConfChain.a(); // first: the stacks cases expect this call at location 0
        HeapMain.main(new String[] {"5"}); // the heap cases' graph (tests/bench/HeapMain.java)
        System.out.println("cflh.final " + ConfMarked.mark());
    }
}

/* Each call is the first instruction of its method (location 0), as the
 * host's model has it. */
class ConfChain {
    static void a() { b(); }
    static void b() { c(); }
    static void c() { }
}
