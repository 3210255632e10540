import Glibc

/// Finds USB serial devices by reading sysfs directly, as libudev does underneath: for machines
/// where libudev cannot be used, and so that the parsing can be tested on a fake tree.
///
/// For each `/sys/class/tty/NAME/device`, follows the link into `/sys/devices/...` and walks up to
/// the USB device (the directory with `idVendor`); the first `driver` link on the way names the
/// kernel driver (the usb-serial driver for ttyUSB ports, cdc_acm for the ACM interface).
public struct SysfsDevices: Sendable {
    /// "/" on a real system; a temporary directory in tests.
    public var root: String

    public init(root: String = "/") { self.root = root.hasSuffix("/") ? String(root.dropLast()) : root }

    /// Whether this machine has a USB bus at all (containers and some CI machines have none).
    public var hasUSBBus: Bool { isDirectory(root + "/sys/bus/usb") }

    public func devices() -> [SerialDeviceInfo] {
        let classDirectory = root + "/sys/class/tty"
        let links = byIDLinks()
        return listDirectory(classDirectory).sorted().compactMap { name in
            let deviceLink = classDirectory + "/" + name + "/device"
            guard let deviceDirectory = realPath(deviceLink) else { return nil }
            guard let usbDevice = ancestor(of: deviceDirectory, containing: "idVendor") else { return nil }
            var info = SerialDeviceInfo(node: "/dev/" + name)
            info.vendorID = parseHex4(readAttribute(usbDevice + "/idVendor"))
            info.productID = parseHex4(readAttribute(usbDevice + "/idProduct"))
            info.manufacturer = readAttribute(usbDevice + "/manufacturer")
            info.product = readAttribute(usbDevice + "/product")
            info.serial = readAttribute(usbDevice + "/serial")
            info.driver = driver(from: deviceDirectory, upTo: usbDevice)
            info.byID = links[name]
            return info
        }
    }

    /// by-id link paths (as seen from the real root) by the tty name they point to.
    func byIDLinks() -> [String: String] {
        let directory = root + "/dev/serial/by-id"
        var links: [String: String] = [:]
        for name in listDirectory(directory).sorted() {
            guard let target = readLink(directory + "/" + name), let tty = target.split(separator: "/").last else {
                continue
            }
            links[String(tty)] = links[String(tty)] ?? "/dev/serial/by-id/" + name
        }
        return links
    }

    func ancestor(of directory: String, containing file: String) -> String? {
        var current = directory
        while current.count > root.count + 1 {
            if access(current + "/" + file, F_OK) == 0 { return current }
            guard let slash = current.lastIndex(of: "/") else { return nil }
            current = String(current[..<slash])
        }
        return nil
    }

    func driver(from directory: String, upTo limit: String) -> String? {
        var current = directory
        while current.count >= limit.count {
            if let target = readLink(current + "/driver"), let name = target.split(separator: "/").last {
                return String(name)
            }
            guard let slash = current.lastIndex(of: "/") else { return nil }
            current = String(current[..<slash])
        }
        return nil
    }
}

/// The corresponding C function is `opendir`/`readdir`.
package func listDirectory(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != ".", name != ".." { names.append(name) }
    }
    return names
}

package func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
}

/// The corresponding C function is `realpath`; nil when the path does not resolve.
package func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// The corresponding C function is `readlink`.
package func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A small sysfs attribute file, trimmed; nil when absent or empty.
/// The corresponding C functions are `open` and `read`.
package func readAttribute(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(descriptor, &buffer, buffer.count)
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters()
    return text.isEmpty ? nil : text
}
