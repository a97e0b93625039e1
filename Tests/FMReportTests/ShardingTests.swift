import Testing
@testable import FMResults

/// A synthetic expansion: suites × variants × case ids.
private let expandedCases: [(String, String?, String)] = {
    var cases: [(String, String?, String)] = []
    for suite in ["city-info", "classify", "schema ünïcode"] {
        for variant in [nil, "a", "b"] as [String?] {
            for index in 0..<400 { cases.append((suite, variant, "case-\(index)")) }
        }
    }
    return cases
}()

@Test(arguments: [1, 2, 3, 4, 7])
func shardsAreDisjointAndComplete(count: Int) throws {
    var owners = [Int](repeating: 0, count: expandedCases.count)
    for index in 1...count {
        let shard = try Shard(index: index, count: count)
        for (position, item) in expandedCases.enumerated() where shard.contains(suite: item.0, variant: item.1, caseID: item.2) {
            owners[position] += 1
        }
    }
    #expect(owners.allSatisfy { $0 == 1 })
}

@Test func shardsAreBalanced() throws {
    let count = 4
    var sizes = [Int](repeating: 0, count: count)
    for item in expandedCases {
        sizes[Shard.number(suite: item.0, variant: item.1, caseID: item.2, count: count) - 1] += 1
    }
    let expected = Double(expandedCases.count) / Double(count)
    for size in sizes { #expect(abs(Double(size) - expected) < expected * 0.1, "sizes \(sizes)") }
}

@Test func partitionIsStableAcrossProcessesAndVersions() {
    // Pinned values (computed independently in Python): a change here reshuffles every user's CI
    // matrix, so it must be deliberate.
    #expect(Shard.stableHash(["city-info", "", "paris"]) == 0xf312_052b_7232_3e0e)
    #expect(Shard.stableHash(["city-info", "a", "beijing"]) == 0x35a2_3ce9_eafc_2433)
    #expect(Shard.number(suite: "city-info", variant: nil, caseID: "paris", count: 4) == 3)
    #expect(Shard.number(suite: "city-info", variant: "a", caseID: "beijing", count: 3) == 2)
    #expect(Shard.number(suite: "classify", variant: nil, caseID: "case-0", count: 3) == 3)
    #expect(Shard.stableHash(["ab", "c"]) != Shard.stableHash(["a", "bc"]))
}

@Test func parsesShardFlag() throws {
    #expect(try Shard(parsing: "2/4") == Shard(index: 2, count: 4))
    #expect(try Shard(parsing: "1/1") == Shard.all)
    for bad in ["0/4", "5/4", "2", "a/b", "2/0", "-1/3", "1/2/3", ""] {
        #expect(throws: ShardError.self, "\(bad)") { try Shard(parsing: bad) }
    }
    let error = try #require(throws: ShardError.self) { try Shard(parsing: "5/4") }
    #expect(error.message.contains("--shard") && error.message.contains("between 1 and 4"))
}
