/* The program tests/jdb debugs, in bin/jvmti-host's interpreter (-cp DIR
 * Steps, host/interp.c) and in HotSpot 17 alike, so it stays within the
 * interpreter's subset: static methods, int locals, a String constant,
 * println, static booleans and one worker thread of its own class, which
 * spins on one line until main sets done. main waits until the worker
 * runs: by then the debugger has seen it start (ThreadStart suspends
 * every thread until jdb resumes them), so the first breakpoint finds it
 * known to jdb in both VMs. program.session stops at the line marked and
 * in twice, and suspends, shows and resumes the worker. */
public class Steps extends Thread {
    static volatile boolean running;
    static volatile boolean done;

    Steps() {
        super("worker");
    }

    public void run() {
        running = true;
        while (!done) { } // the worker spins here
    }

    public static void main(String[] args) throws InterruptedException {
        Steps worker = new Steps();
        worker.start();
        while (!running) { }
        String greeting = "hello";
        int count = 2;
        int total = add(count, 3); // stop at
        System.out.println(greeting);
        System.out.println(total);
        System.out.println(twice(total));
        done = true;
        worker.join();
        System.out.println("end");
    }

    static int add(int a, int b) {
        int sum = a + b;
        return sum;
    }

    static int twice(int x) {
        return x * 2;
    }
}
