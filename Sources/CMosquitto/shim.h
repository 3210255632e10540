#ifndef GPSFENCE_CMOSQUITTO_SHIM_H
#define GPSFENCE_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
