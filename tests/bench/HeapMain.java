// The heap model's shape in Java (host/scaffold/heap_model.c builds the same in
// bin/jvmti-host): a HeapRoot holding N HeapNodes in a list and an array,
// an int[] and a String, kept by a static field until the VM ends, when
// tests/host/heap_agent.c (option "bench") times its walks at VMDeath.
// usage: java -agentpath:heap_agent.so=bench HeapMain N
class HeapRoot {
    HeapNode[] nodes;
    int[] ints;
    String name;
    int count;
}

class HeapNode {
    HeapNode next;
    int value;
}

public class HeapMain {
    static HeapRoot root;

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        HeapRoot r = new HeapRoot();
        r.nodes = new HeapNode[n];
        for (int i = n - 1; i >= 0; i--) {
            HeapNode node = new HeapNode();
            node.value = i;
            node.next = i + 1 < n ? r.nodes[i + 1] : null;
            r.nodes[i] = node;
        }
        r.ints = new int[] {1, 2, 3};
        r.name = "heap";
        r.count = n;
        root = r;
    }
}
