/* libxml2's xmlStrEqual, for libxslt's calls. libxslt asks whether each
 * instruction it runs is in the XSLT namespace by comparing the element's
 * namespace URI with its own copy of "http://www.w3.org/1999/XSL/Transform"
 * (IS_XSLT_ELEM), byte by byte in libxml2's loop: 146 instructions for
 * the 36 bytes, 38M of the templates' instructions on JDK 25 (issue 37).
 * The program's definition comes first for the calls from other
 * libraries (libxml2's own calls inside itself stay its own), and libc's
 * strcmp compares many bytes at a time. Same answers: equal pointers
 * (NULL and NULL too) are equal, NULL and a string are not. */
#include <string.h>

#include <libxml/xmlstring.h>

int xmlStrEqual(const xmlChar *a, const xmlChar *b)
{
    if (a == b)
        return 1;
    if (!a || !b)
        return 0;
    return strcmp((const char *)a, (const char *)b) == 0;
}
