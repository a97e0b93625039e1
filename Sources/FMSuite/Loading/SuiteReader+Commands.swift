import FMCore

extension SuiteReader {
    /// The suite's `environment: {pass, set}`, `secrets` and `toolOutputLimit`, validated with located errors.
    func commandPolicy(_ keys: [String: YAMLNode]) -> CommandPolicy {
        var policy = CommandPolicy()
        if let node = keys["environment"], let environment = mapping(node, "environment", allowed: ["pass", "set"]) {
            if let passNode = environment["pass"] {
                let names = stringList(passNode, "environment.pass") ?? []
                for (index, name) in names.enumerated() where !CommandPolicy.isValidPattern(name) {
                    report(passNode.sequence?[index] ?? passNode,
                           "environment.pass entry '\(name)' is not a variable name; write NAME or PREFIX* (letters, digits, _)")
                }
                policy.pass = names.filter(CommandPolicy.isValidPattern)
            }
            if let setNode = environment["set"] { policy.set = variables(setNode) }
        }
        if let node = keys["secrets"] {
            let names = stringList(node, "secrets") ?? []
            for (index, name) in names.enumerated() where !CommandPolicy.isValidName(name) {
                report(node.sequence?[index] ?? node, "secrets entry '\(name)' is not a variable name (letters, digits, _)")
            }
            policy.secrets = names.filter(CommandPolicy.isValidName)
        }
        if let limit = int(keys["toolOutputLimit"], "toolOutputLimit (bytes of tool output kept)", minimum: 1) {
            policy.toolOutputLimit = limit
        }
        return policy
    }

    /// `set:` — a mapping of variable names to scalar values.
    private func variables(_ node: YAMLNode) -> [String: String] {
        guard let entries = node.mapping else {
            report(node, "environment.set must be a mapping of NAME: value, not \(node.kindName)")
            return [:]
        }
        var result: [String: String] = [:]
        for entry in entries {
            guard CommandPolicy.isValidName(entry.name) else {
                report(entry.key, "environment.set name '\(entry.name)' is not a variable name (letters, digits, _)")
                continue
            }
            if let value = text(entry.value, "environment.set.\(entry.name)") { result[entry.name] = value }
        }
        return result
    }
}
