import AnimKit
import Foundation

/// `AnimError` as a Foundation `LocalizedError`, so `localizedDescription`
/// gives the message instead of "The operation could not be completed".
///
/// In a module of its own because AnimKit does not link Foundation (it
/// would add about 10 MiB to every process); import `AnimKitFoundation`
/// in programs that use Foundation's error reporting.
extension AnimError: LocalizedError {
    /// The same message as `description` (which already names the file,
    /// the frame and the problem, so there is no separate `failureReason`:
    /// interfaces that join the two would say it twice).
    public var errorDescription: String? { description }
}
