import com.sun.tools.attach.VirtualMachine;

/* The Attach API's way of loading an agent into a running VM:
 * java Attacher PID LIBRARY OPTIONS. Exit status 1 if the VM refused. */
public class Attacher {
    public static void main(String[] args) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(args[0]);
        try {
            vm.loadAgentPath(args[1], args[2]);
        } catch (Exception e) {
            System.out.println("attacher: " + e);
            System.exit(1);
        } finally {
            vm.detach();
        }
    }
}
