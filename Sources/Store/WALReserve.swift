import Platform

extension StateStore {
    /// How much WAL a long-running engine's file blocks are reserved for: the growth at which a
    /// checkpoint runs anyway (`Checkpointer`), and `journal_size_limit`, the size a WAL is cut
    /// back to once checkpointed. A live run adds some 3 MB an hour.
    static let walReserve = 4 << 20

    /// Reserves the disk blocks the WAL grows into, keeping its size (`fallocate` with
    /// `FALLOC_FL_KEEP_SIZE`). Without it, each event's `fdatasync` of the growing WAL also wrote
    /// the filesystem's record of the blocks it had just taken (ext4's block bitmap and group
    /// descriptor: two 4 KB pages an event on the test machine, journal blocks where there is a
    /// journal). Best effort: a filesystem that cannot reserve grows the file as before.
    func reserveWALBlocks() {
        _ = reserveDiskBlocks(path: path + "-wal", length: Self.walReserve)
    }
}
