/* The trivial program HotSpot runs with the conformance agent loaded. */
public class Main {
    public static void main(String[] args) {
    }
}
