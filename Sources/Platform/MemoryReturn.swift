#if canImport(Glibc)
    import CMemory
#endif

/// Makes every block of `bytes` or more its own mapping, unmapped when it is freed (glibc's
/// `mallopt(M_MMAP_THRESHOLD, bytes)`). glibc otherwise raises that threshold each time such a
/// block is freed, up to 32 MB, and serves later blocks from the heap, whose freed middle it keeps
/// resident: a run that loaded a country's corridors peaked about 24 MB higher that way. For the
/// long-lived run; a batch command keeps glibc's default. Best effort: a refusal leaves the default.
public func returnLargeBlocksAtOnce(from bytes: Int = 1 << 20) {
    #if canImport(Glibc)
        _ = gpsfence_set_mmap_threshold(Int32(clamping: bytes))
    #endif
}
