/* Preloaded into jvmti-host by tests/host/test.sh: a library whose
 * destructor keeps the process alive 300 ms after main returned, as other
 * libraries' exit handlers may, while an agent's threads still call JVM TI. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

__attribute__((destructor)) static void linger(void)
{
    struct timespec ts = {0, 300 * 1000000L};
    nanosleep(&ts, NULL);
}
