import Glibc

extension StandardStream {
    /// The rows and columns of the terminal the stream is, or nil when it is none (or says 0): a
    /// redrawn screen (`status --watch`) must fit in them, or the top scrolls away. Asked at each
    /// redraw, so a resized window is followed. The corresponding C call is `ioctl(TIOCGWINSZ)`.
    public var terminalSize: (rows: Int, columns: Int)? {
        var size = winsize()
        guard ioctl(rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }
}
