import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/* A java.lang.instrument agent: prints its options, then each application
 * class its transformer sees (not the JDK's). */
public class Premain {
    public static void premain(String options, Instrumentation inst) {
        System.out.println("premain: " + options);
        inst.addTransformer(new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> redefined,
                                    ProtectionDomain domain, byte[] bytes) {
                if (name != null && !name.startsWith("java/") && !name.startsWith("jdk/")
                        && !name.startsWith("sun/") && !name.startsWith("Premain"))
                    System.out.println("transform: " + name + " " + bytes.length + " bytes");
                return null;
            }
        });
    }
}
