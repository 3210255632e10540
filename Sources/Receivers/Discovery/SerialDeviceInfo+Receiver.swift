import Platform

extension SerialDeviceInfo {
    /// What sits behind the device node, as far as baud rates go.
    public var kind: DeviceKind { DeviceKind.of(resolvedName: node) }
    /// The receiver its USB ids name, when they are in the table of known receivers.
    public var known: KnownReceiver? { KnownReceiver.match(vendor: vendorID, product: productID) }
}
