#ifndef GPSFENCE_CZLIB_SHIM_H
#define GPSFENCE_CZLIB_SHIM_H
#include <zlib.h>
#endif
