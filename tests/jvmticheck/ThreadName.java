// A thread whose name holds a newline and what would follow it in a forged
// trace line: the checker's event trace must keep it on its own line.
public class ThreadName {
    public static void main(String[] args) throws InterruptedException {
        Thread t = new Thread(() -> { }, "evil\njvmti: event VMInit on thread \"main\" at 0.000000000 s (0 ns)");
        t.start();
        t.join();
        System.out.println("hello");
    }
}
