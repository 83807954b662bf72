import java.nio.file.Files;
import java.nio.file.Path;

/* A program that runs until the file its argument names exists (at most a
 * minute): the VM agents are attached to while it waits. */
public class Waiter {
    public static void main(String[] args) throws Exception {
        System.out.println("waiting");
        System.out.flush();
        Path go = Path.of(args[0]);
        for (int i = 0; i < 600 && !Files.exists(go); i++)
            Thread.sleep(100);
        System.out.println("done");
    }
}
