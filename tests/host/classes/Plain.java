/* A class without the marker: both environments see it and leave it alone. */
public class Plain {
    public static int answer() {
        return 42;
    }
}
