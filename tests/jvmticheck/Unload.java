import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;

/* Loads Hello again through a class loader of its own, drops both and
 * collects until the class is gone: the VM unloads it (HotSpot's
 * ClassUnload extension event). args[0]: the directory of Hello.class;
 * args[1]: a file to wait for (at most 10 s), made when the event came. */
public class Unload {
    public static void main(String[] args) throws Exception {
        URL dir = new java.io.File(args[0]).toURI().toURL();
        URLClassLoader loader = new URLClassLoader(new URL[] {dir}, null);
        Class<?> c = Class.forName("Hello", true, loader);
        WeakReference<Class<?>> gone = new WeakReference<>(c);
        c = null;
        loader.close();
        loader = null;
        for (int i = 0; i < 100 && gone.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        System.out.println(gone.get() == null ? "unloaded" : "still loaded");
        /* The VM posts the event from its service thread: args[1], if
         * given, is the file the agent makes when the event came. */
        for (int i = 0; i < 200 && args.length > 1 && !new java.io.File(args[1]).exists(); i++)
            Thread.sleep(50);
    }
}
