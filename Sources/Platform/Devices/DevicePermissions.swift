import Glibc
import SystemPackage

/// Who may open a device, and what the current user lacks: the text behind "permission denied".
public struct DevicePermissions: Sendable, Equatable {
    public var path: String
    public var ownerUID: UInt32
    public var groupID: UInt32
    /// The group's name, e.g. "dialout" (Debian, Ubuntu, Raspberry Pi OS) or "uucp" (Arch, Fedora).
    public var groupName: String?
    /// Permission bits, e.g. 0o660.
    public var mode: UInt32
    /// The process carries the device's group (effective or supplementary).
    public var processHasGroup: Bool
    /// /etc/group lists the user as a member, whether or not this login session has picked it up.
    public var userListedInGroup: Bool
    public var userName: String?

    /// Looks the device up.
    /// The corresponding C functions are `stat`, `getgroups`, `getgrgid_r` and `getpwuid_r`.
    public static func inspect(_ path: String) -> DevicePermissions? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let groups = processGroups()
        let userName = Self.userName(uid: getuid())
        let group = Self.groupEntry(info.st_gid)
        return DevicePermissions(
            path: path, ownerUID: info.st_uid, groupID: info.st_gid, groupName: group?.name,
            mode: UInt32(info.st_mode) & 0o7777,
            processHasGroup: groups.contains(info.st_gid),
            userListedInGroup: userName.map { group?.members.contains($0) ?? false } ?? false,
            userName: userName)
    }

    /// Others (neither owner nor group) may read and write: the device is world-writable.
    public var isWorldWritable: Bool { mode & 0o002 != 0 }
    public var groupMayReadWrite: Bool { mode & 0o060 == 0o060 }

    /// What to do about a failed open; nil when there is nothing useful to add.
    public static func hint(for errno: Errno, path: String) -> SerialError.Hint? {
        switch errno {
        case .permissionDenied, .notPermitted: .permission(inspect(path))
        case .resourceBusy: .busy
        case .noSuchFileOrDirectory: .missing
        default: nil
        }
    }

    /// Why the user cannot open the device.
    public var explanation: String {
        let user = userName ?? "this user"
        guard let groupName, groupMayReadWrite, groupName != "root" else {
            return
                "\(path) is mode \(String(mode, radix: 8)), owner uid \(ownerUID), group \(groupName ?? String(groupID)): "
                + "no group the user could join may read and write it"
        }
        if userListedInGroup, !processHasGroup {
            return
                "\(path) belongs to group '\(groupName)'; \(user) was added to '\(groupName)' but this login session predates it"
        }
        return "\(path) belongs to group '\(groupName)', which \(user) is not in"
    }

    /// What to do about it.
    public var remedy: String {
        guard let groupName, groupMayReadWrite, groupName != "root" else {
            return
                "install udev/60-gpsfence.rules (group dialout, mode 0660, uaccess), then unplug and replug the receiver"
        }
        if userListedInGroup, !processHasGroup {
            return "log out and back in (or run 'newgrp \(groupName)')"
        }
        return "sudo usermod -aG \(groupName) $USER, then log out and back in"
    }

    /// Explanation and remedy in one line, for an error message.
    public var fix: String { explanation + "; fix: " + remedy }

    /// The process's effective group and supplementary groups.
    /// The corresponding C function is `getgroups`.
    static func processGroups() -> Set<UInt32> {
        var result: Set<UInt32> = [getegid()]
        let count = getgroups(0, nil)
        if count > 0 {
            var groups = [gid_t](repeating: 0, count: Int(count))
            let filled = getgroups(count, &groups)
            if filled > 0 { result.formUnion(groups.prefix(Int(filled))) }
        }
        return result
    }

    /// The corresponding C function is `getgrgid_r`.
    static func groupEntry(_ gid: UInt32) -> (name: String, members: [String])? {
        var entry = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var storage = [CChar](repeating: 0, count: 16384)
        guard getgrgid_r(gid, &entry, &storage, storage.count, &result) == 0, result != nil else { return nil }
        var members: [String] = []
        if var member = entry.gr_mem {
            while let name = member.pointee {
                members.append(String(cString: name))
                member += 1
            }
        }
        return (String(cString: entry.gr_name), members)
    }

    /// The corresponding C function is `getpwuid_r`.
    static func userName(uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var storage = [CChar](repeating: 0, count: 16384)
        guard getpwuid_r(uid, &entry, &storage, storage.count, &result) == 0, result != nil else { return nil }
        return String(cString: entry.pw_name)
    }
}
