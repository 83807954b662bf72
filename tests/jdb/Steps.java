/* The program tests/jdb debugs, in bin/jvmti-host's interpreter (-cp DIR
 * Steps, host/interp.c) and in HotSpot 17 alike, so it stays within the
 * interpreter's subset: static methods, int locals, a String constant,
 * println. program.session stops at the line marked and in twice. */
public class Steps {
    public static void main(String[] args) {
        String greeting = "hello";
        int count = 2;
        int total = add(count, 3); // stop at
        System.out.println(greeting);
        System.out.println(total);
        System.out.println(twice(total));
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
