/// The ways `flowspec check` can print its findings.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Like the Swift compiler: `path:line:col: error: message [rule]`, source line, caret, notes.
    case text
    /// One object `{"diagnostics": [...]}`.
    case json
    /// GitHub Actions workflow commands (`::error file=…`).
    case github
    /// SARIF 2.1.0, for code scanning.
    case sarif
}

/// Turns findings into the text of one output format.
public enum DiagnosticRenderer {
    /// Renders `diagnostics` (about the given files) in `format`.
    public static func render(
        _ diagnostics: [Diagnostic], files: [SourceFile], format: OutputFormat,
        colour: Bool = false
    ) -> String {
        var output = ""
        render(diagnostics, files: files, format: format, colour: colour, into: &output)
        return output
    }

    /// Writes `diagnostics` (about the given files) to `output` in `format`, finding after
    /// finding: a long list is never held whole as text.
    public static func render(
        _ diagnostics: [Diagnostic], files: [SourceFile], format: OutputFormat,
        colour: Bool = false, into output: inout some TextOutputStream
    ) {
        switch format {
        case .text:
            TextRenderer(files: files, colour: colour, diagnostics: diagnostics).render(diagnostics, into: &output)
        case .json: JSONRenderer.render(diagnostics, into: &output)
        case .github: GitHubRenderer.render(diagnostics, into: &output)
        case .sarif: SARIFRenderer.render(diagnostics, into: &output)
        }
    }
}
