// swift-tools-version:6.0
// Text-cell speed: `swift run -c release` here (see README.md).
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, whatever the clone is called.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized
let identity = repository.lastPathComponent.lowercased()

let package = Package(
    name: "textbench",
    dependencies: [.package(path: repository.path)],
    targets: [.executableTarget(name: "textbench", dependencies: [.product(name: "AnimTerminal", package: identity),
                                                                    .product(name: "AnimKit", package: identity)])]
)
