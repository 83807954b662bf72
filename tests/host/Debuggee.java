/* The program tests/host/interp_agent.c debugs, run by HotSpot and by
 * bin/jvmti-host's interpreter (-cp DIR Debuggee, host/interp.c) alike:
 * only what the interpreter's subset holds (static methods, int and long
 * arithmetic, a loop, locals, String constants, println). The agent stops
 * at the line marked "the breakpoint" (test.sh passes its number). */
public class Debuggee {
    public static void main(String[] args) {
        System.out.println("start");
        int total = sum(4);
        System.out.println(total);
        System.out.println(twice(21));
        System.out.println(big(3));
        System.out.println("end");
    }

    static int sum(int n) {
        String label = "sum";
        int total = 0;
        for (int i = 1; i <= n; i++) {
            total = total + i; // the breakpoint
        }
        System.out.println(label);
        return total;
    }

    static int twice(int x) {
        return x * 2;
    }

    static long big(long x) {
        return x * 1000000007L;
    }
}
