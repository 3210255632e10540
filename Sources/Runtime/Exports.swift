// Commands that write output import Runtime; the writer itself lives with the sinks in Alerts.
@_exported import class Alerts.OutputWriter
