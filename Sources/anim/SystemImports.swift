// The C library, for every file of the tool (write, stat, signals, …).
@_exported import Glibc
