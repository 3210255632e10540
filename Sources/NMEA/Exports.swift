// The JSON writer is part of what NMEA's users get: its types (JSONBuffer, JSONLine, Hex) are
// used wherever a decoded value is printed.
@_exported import JSONOutput
