#ifndef GPSFENCE_CMOSQUITTO_SHIM_H
#define GPSFENCE_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#endif
