/* Threads of the program's own class in host/interp.c (new, start, join,
 * run as an instance method, static fields shared between threads): the
 * worker waits for its turn, prints, and hands the turn back; joining a
 * thread never started returns at once. tests/host/test.sh runs it in the
 * host and in HotSpot 17 and compares the output. Restart, below, starts
 * its thread twice: the host stops there with a message (exceptions are
 * outside its subset), where HotSpot throws IllegalThreadStateException. */
public class Workers extends Thread {
    static volatile int turn;

    Workers(String name) {
        super(name);
    }

    public void run() {
        while (turn != 1) { }
        System.out.println("worker");
        turn = 2;
    }

    public static void main(String[] args) throws InterruptedException {
        Workers w = new Workers("w");
        w.start();
        System.out.println("main");
        turn = 1;
        w.join();
        System.out.println(turn);
        new Workers("never").join();
        System.out.println("end");
    }
}

class Restart extends Thread {
    Restart() {
        super("restart");
    }

    public static void main(String[] args) throws InterruptedException {
        Restart r = new Restart();
        r.start();
        r.join();
        System.out.println("ran");
        r.start();
    }
}
