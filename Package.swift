// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "anim",
    products: [
        .library(name: "AnimKit", targets: ["AnimKit"]),
        .library(name: "AnimTerminal", targets: ["AnimTerminal"]),
        .executable(name: "anim", targets: ["anim"]),
    ],
    targets: [
        .systemLibrary(name: "CGIF", pkgConfig: "libgif",
                       providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp libwebpdemux libwebpmux",
                       providers: [.apt(["libwebp-dev"])]),
        .target(name: "CPNGBridge", dependencies: ["CPNG"],
                cSettings: [.unsafeFlags(["-O2"])],
                linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("deflate")]),
        .target(name: "AnimKit", dependencies: ["CGIF", "CPNGBridge", "CWebP"]),
        .target(name: "AnimTerminal", dependencies: ["AnimKit"]),
        .executableTarget(name: "anim", dependencies: ["AnimKit", "AnimTerminal"]),
        .testTarget(name: "AnimKitTests", dependencies: ["AnimKit", "CWebP"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "AnimCLITests", dependencies: ["AnimKit", "anim"]),
        .testTarget(name: "AnimTerminalTests", dependencies: ["AnimTerminal", "AnimKit"],
                    exclude: ["Fixtures"]),   // read by path (fuzz-replies inputs)
    ]
)
