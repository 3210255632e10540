#ifndef GPSFENCE_CUDEV_SHIM_H
#define GPSFENCE_CUDEV_SHIM_H
#include <libudev.h>
#endif
