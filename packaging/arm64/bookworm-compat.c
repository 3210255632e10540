// Linked into the arm64 package's binary only (scripts/build-deb.sh, docs/packaging.md "arm64").
//
// The arm64 Swift runtime comes from Debian sid, built against a newer glibc and GCC, while the
// binary is linked against Debian bookworm (glibc 2.36, GCC 12) so that it runs on Raspberry Pi OS
// bookworm. The runtime refers to seven names bookworm's libraries lack:
//
// - glibc 2.38 added strlcpy and strlcat (CoreFoundation uses them); they are the BSD functions.
// - glibc 2.38 turns strtol, strtoll, strtoul and sscanf into their C23 variants, whose only
//   difference is that they also accept a "0b" binary prefix (base 0 or 2, and %i). The callers in
//   the runtime and Foundation parse decimal and hexadecimal numbers, never binary.
// - libstdc++ 14 moved the failure path of its assertions (_GLIBCXX_ASSERTIONS, which Debian builds
//   with) into the library as std::__glibcxx_assert_fail; this one reports and aborts, as that does.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t strlcpy(char *destination, const char *source, size_t size) {
    size_t length = strlen(source);
    if (size > 0) {
        size_t copied = length < size - 1 ? length : size - 1;
        memcpy(destination, source, copied);
        destination[copied] = '\0';
    }
    return length;
}

size_t strlcat(char *destination, const char *source, size_t size) {
    size_t existing = strnlen(destination, size);
    if (existing == size) return size + strlen(source);
    return existing + strlcpy(destination + existing, source, size - existing);
}

long __isoc23_strtol(const char *text, char **end, int base) { return strtol(text, end, base); }

long long __isoc23_strtoll(const char *text, char **end, int base) { return strtoll(text, end, base); }

unsigned long __isoc23_strtoul(const char *text, char **end, int base) { return strtoul(text, end, base); }

int __isoc23_sscanf(const char *text, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int assigned = vsscanf(text, format, arguments);
    va_end(arguments);
    return assigned;
}

// std::__glibcxx_assert_fail(const char *file, int line, const char *function, const char *condition)
void _ZSt21__glibcxx_assert_failPKciS0_S0_(const char *file, int line, const char *function,
                                           const char *condition) {
    fprintf(stderr, "%s:%d: %s: Assertion '%s' failed.\n", file, line, function, condition);
    abort();
}
