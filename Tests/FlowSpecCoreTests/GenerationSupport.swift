@testable import FlowSpecCore

/// Small wrappers over the generation pipeline for tests.
enum FlowSpecCoreTestsSupport {
    static func source(path: String, text: String) -> SourceFile {
        SourceFile(path: path, text: text)
    }

    static func check(_ file: SourceFile) -> SpecChecker.Checked {
        SpecChecker().check(file)
    }

    static func programs(_ result: SpecChecker.Checked) -> [FlowProgram]? {
        SpecGeneration.programs(result, diagnostics: result.diagnostics)
    }

    static func describe(_ result: SpecChecker.Checked) -> String {
        result.diagnostics.map { "\($0.location): \($0.severity): \($0.message) [\($0.rule.rawValue)]" }
            .joined(separator: "\n")
    }

    static func swift(
        _ programs: [FlowProgram], path: String, access: GenerationOptions.AccessLevel = .internal,
        shape: GenerationOptions.Shape = .automatic
    ) -> String {
        SwiftGenerator.file(
            for: programs, options: GenerationOptions(sourcePath: path, accessLevel: access, shape: shape))
    }
}
