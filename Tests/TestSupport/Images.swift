import Foundation

/// A 1×1 PNG, for tests of image attachments.
public let onePixelPNG = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
                                             + "+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!
