#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Anonymous memory for a big array that decode streams front to back on every token (the packed layer
/// weights, the bandwidth probe's buffer), asked of Linux in 2 MB pages (`MADV_HUGEPAGE`): with 4 KB
/// pages a 66 MB stream takes a TLB miss every 4 KB, each a page walk (nested under a hypervisor), and
/// decode read its layers measurably slower (docs/engine.md, "Layers on 2 MB pages"). Elsewhere, or
/// where the mapping fails, plain aligned memory; where Linux has no huge page to give, it maps small
/// ones, so this never fails for want of them.
final class LargePageMemory {
    /// The size of a transparent huge page on x86-64 and on arm64 with 4 KB base pages.
    static let pageBytes = 2 << 20

    /// The first byte: a multiple of `pageBytes` when mapped, of 64 otherwise.
    let base: UnsafeMutableRawPointer
    /// What `deinit` gives back: the whole mapping (its unaligned head and tail were never touched),
    /// or nil for memory from `allocate`.
    private let mapping: (start: UnsafeMutableRawPointer, bytes: Int)?

    /// At least `byteCount` bytes (1 or more), uninitialized.
    init(byteCount: Int) {
        let count = max(1, byteCount)
        #if os(Linux)
        let bytes = count + Self.pageBytes
        if let start = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
           start != MAP_FAILED {
            base = UnsafeMutableRawPointer(bitPattern: Self.wholePages(Int(bitPattern: start)))!
            // Advice only: a kernel without transparent huge pages maps small ones.
            _ = madvise(base, Self.wholePages(count), MADV_HUGEPAGE)
            mapping = (start, bytes)
            return
        }
        #endif
        base = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        mapping = nil
    }

    /// `n` rounded up to a multiple of `pageBytes`.
    private static func wholePages(_ n: Int) -> Int { (n + pageBytes - 1) / pageBytes * pageBytes }

    deinit {
        if let mapping {
            munmap(mapping.start, mapping.bytes)
        } else {
            base.deallocate()
        }
    }
}
