// swift-tools-version:6.0
import PackageDescription

// AnimKit 2.0.0 — Apache License 2.0 (LICENSE). Depend on it with
// .package(url: "<repository URL>", from: "2.0.0").

let package = Package(
    name: "anim",
    products: [
        .library(name: "AnimKit", targets: ["AnimKit"]),
        .library(name: "AnimKitFoundation", targets: ["AnimKitFoundation"]),
        .library(name: "AnimTerminal", targets: ["AnimTerminal"]),
        .executable(name: "anim", targets: ["anim"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGIF", pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebp libwebpdemux libwebpmux",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            name: "CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(
            name: "CLCMS", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]),
        .target(
            name: "CPNGBridge", dependencies: ["CPNG", "CDeflate"],
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("zopfli")]),
        // Pixel loops in C: the colour conversion and GIF palette expansion
        // (AVX2 where the processor has it).
        .target(name: "CColorKernel"),
        .target(name: "CSystem"),
        .target(
            name: "AnimKit", dependencies: ["CGIF", "CPNGBridge", "CDeflate", "CWebP", "CLCMS", "CColorKernel", "CSystem"]),
        .target(name: "AnimKitFoundation", dependencies: ["AnimKit"]),
        .target(name: "AnimTerminal", dependencies: ["AnimKit"]),
        .executableTarget(name: "anim", dependencies: ["AnimKit", "AnimTerminal"]),
        // What the test targets share: pseudo-terminals, the escape-sequence
        // scanner, running programs, fixtures, temporary directories.
        .target(name: "AnimTestSupport", dependencies: ["AnimKit"], path: "Tests/AnimTestSupport"),
        .testTarget(
            name: "AnimKitTests", dependencies: ["AnimKit", "AnimKitFoundation", "AnimTestSupport", "CGIF", "CWebP", "CDeflate"],
            exclude: ["Fixtures"]),  // read where they are (AnimTestSupport's Fixtures)
        .testTarget(name: "AnimCLITests", dependencies: ["AnimKit", "AnimTestSupport", "anim"]),
        .testTarget(
            name: "AnimTerminalTests", dependencies: ["AnimTerminal", "AnimKit", "AnimTestSupport"],
            exclude: ["Fixtures"]),  // read by path (fuzz-replies inputs)
    ]
)
