/* The program jdb debugs (jdb_session.py): a method with arguments and
 * locals, called from main. Line numbers matter: the session stops at
 * line 6 and steps to line 7. */
public class Debuggee {
    static int area(int width, int height) {
        int product = width * height;
        String label = "area";
        return product + label.length();
    }

    public static void main(String[] args) {
        int total = area(6, 7);
        System.out.println("total " + total);
    }
}
