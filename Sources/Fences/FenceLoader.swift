/// Loading fence files (docs/fences.md).
extension FenceSet {
    /// Loads a fence file: CSV when the name ends in `.csv`, GeoJSON otherwise. Bad input refuses
    /// the whole file with a `FenceLoadError` naming the file, the feature and the problem.
    public static func load(path: String, cellScale: Double = 2) throws(FenceLoadError) -> FenceSet {
        try loadBuilder(path: path).build(cellScale: cellScale)
    }

    /// Parses and validates a fence file without building the index.
    public static func loadBuilder(path: String) throws(FenceLoadError) -> FenceSetBuilder {
        let bytes = try FileBytes(path: path)
        if path.lowercased().hasSuffix(".csv") { return try CSVLoader(bytes: bytes.buffer, file: path).load() }
        var loader = GeoJSONLoader(bytes: bytes.buffer, file: path)
        loader.releasable = bytes.mapped
        return try loader.load()
    }

    /// Parses fence text (GeoJSON, or CSV when `csv`); `file` names it in messages.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>, file: String, csv: Bool) throws(FenceLoadError)
        -> FenceSetBuilder
    {
        if csv { return try CSVLoader(bytes: bytes, file: file).load() }
        var loader = GeoJSONLoader(bytes: bytes, file: file)
        return try loader.load()
    }

    /// Parses fence text held in a string.
    public static func parse(_ text: String, file: String = "<fences>", csv: Bool = false) throws(FenceLoadError)
        -> FenceSet
    {
        let bytes = Array(text.utf8)
        let builder = try bytes.withUnsafeBufferPointer { (b) throws(FenceLoadError) in
            try parse(bytes: b, file: file, csv: csv)
        }
        return builder.build()
    }
}
