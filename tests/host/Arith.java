/* The arithmetic of host/interp.c's subset, on values where C and Java
 * part ways (negative division and shifts, overflow, MIN_VALUE / -1):
 * tests/host/test.sh compares what the host prints with the values
 * worked out by hand in its comments here, and with HotSpot 17. */
public class Arith {
    public static void main(String[] args) {
        int a = -17, b = 5;
        System.out.println(a / b);    // -3
        System.out.println(a % b);    // -2
        System.out.println(a >> 2);   // -5: floor(-17 / 4)
        System.out.println(a >>> 28); // 15: 0xffffffef >>> 28
        System.out.println(a << 3);   // -136
        System.out.println(a & b);    // 5
        System.out.println(a | b);    // -17
        System.out.println(a ^ b);    // -22: 0x...ea
        System.out.println(-a);       // 17
        int big = 2147483647;
        big++;
        System.out.println(big);      // -2147483648: wraps
        int min = -2147483648, m1 = -1;
        System.out.println(min / m1); // -2147483648
        System.out.println(min % m1); // 0
        long x = -17L, y = 5L;
        System.out.println(x / y);    // -3
        System.out.println(x % y);    // -2
        System.out.println(x >> 2);   // -5
        System.out.println(x >>> 60); // 15
        System.out.println(x << 40);  // -18691697672192: -17 * 2^40
        System.out.println((int) (x << 40)); // 0: the low 32 bits
        System.out.println((long) a); // -17
        System.out.println(x == y ? 1 : 0); // 0
        int i = 0, n = 0;
        while (i < 10) {
            i += 3;
            n--;
        }
        System.out.println(n);        // -4
        System.out.println(sub(3, 10)); // -7
    }

    static int sub(int p, int q) {
        return p - q;
    }
}
