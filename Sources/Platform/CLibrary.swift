// The C library's pure functions, which compute and call no kernel: the math of the geometry and
// the decimal readers, and the byte searches of the parsers. They are re-exported by name, so that
// a module reaches them through Platform without importing Glibc, and reaches nothing else of it.
@_exported import func Glibc.acos
@_exported import func Glibc.asin
@_exported import func Glibc.atan
@_exported import func Glibc.atan2
@_exported import func Glibc.ceil
@_exported import func Glibc.cos
@_exported import func Glibc.exp
@_exported import func Glibc.floor
@_exported import func Glibc.fmod
@_exported import func Glibc.free
@_exported import func Glibc.hypot
@_exported import func Glibc.log
@_exported import func Glibc.log10
@_exported import func Glibc.log2
@_exported import func Glibc.malloc
@_exported import func Glibc.memchr
@_exported import func Glibc.memcmp
@_exported import func Glibc.memcpy
@_exported import func Glibc.memmove
@_exported import func Glibc.pow
@_exported import func Glibc.realloc
@_exported import func Glibc.sin
@_exported import func Glibc.sqrt
@_exported import func Glibc.strlen
@_exported import func Glibc.strtod
@_exported import func Glibc.tan
