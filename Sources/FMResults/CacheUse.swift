/// How a record-through cache (`fmeval run --cache FILE`) answered one run's engine calls.
public struct CacheUse: Codable, Equatable, Sendable {
    /// The cache file.
    public var path: String
    /// Engine calls answered from the file.
    public var callsFromCache: Int
    /// Engine calls that missed, ran on the engine and were added to the file.
    public var callsRecorded: Int

    /// The use of the cache at `path`.
    public init(path: String, callsFromCache: Int, callsRecorded: Int) {
        self.path = path
        self.callsFromCache = callsFromCache
        self.callsRecorded = callsRecorded
    }
}
