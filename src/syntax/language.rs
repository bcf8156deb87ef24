//! Which language a file is, by its name alone (extension or a well-known file name), and
//! that language's published tree-sitter grammar. A name this does not know is no
//! language: its file is never gated.

/// A language the syntax gate knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Java,
    C,
    Cpp,
    CSharp,
    Ruby,
    Php,
    Bash,
    Json,
    Toml,
    Yaml,
    Html,
    Css,
}

impl Language {
    /// Every language, in the order the documentation lists them.
    pub const ALL: [Language; 18] = [
        Language::Rust,
        Language::Python,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Go,
        Language::Java,
        Language::C,
        Language::Cpp,
        Language::CSharp,
        Language::Ruby,
        Language::Php,
        Language::Bash,
        Language::Json,
        Language::Toml,
        Language::Yaml,
        Language::Html,
        Language::Css,
    ];

    /// The name results and refusals give (`details.language`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Go => "go",
            Language::Java => "java",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::CSharp => "csharp",
            Language::Ruby => "ruby",
            Language::Php => "php",
            Language::Bash => "bash",
            Language::Json => "json",
            Language::Toml => "toml",
            Language::Yaml => "yaml",
            Language::Html => "html",
            Language::Css => "css",
        }
    }

    /// The language of the file named `path` (a workspace-relative path with `/`), if
    /// its name says.
    #[must_use]
    pub fn of_path(path: &str) -> Option<Language> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if let Some(language) = by_name(name) {
            return Some(language);
        }
        let (_, extension) = name.rsplit_once('.')?;
        by_extension(&extension.to_ascii_lowercase())
    }

    /// The grammar, as its crate publishes it.
    #[must_use]
    pub fn grammar(self) -> tree_sitter::Language {
        let function = match self {
            Language::Rust => tree_sitter_rust::LANGUAGE,
            Language::Python => tree_sitter_python::LANGUAGE,
            Language::JavaScript => tree_sitter_javascript::LANGUAGE,
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT,
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX,
            Language::Go => tree_sitter_go::LANGUAGE,
            Language::Java => tree_sitter_java::LANGUAGE,
            Language::C => tree_sitter_c::LANGUAGE,
            Language::Cpp => tree_sitter_cpp::LANGUAGE,
            Language::CSharp => tree_sitter_c_sharp::LANGUAGE,
            Language::Ruby => tree_sitter_ruby::LANGUAGE,
            Language::Php => tree_sitter_php::LANGUAGE_PHP,
            Language::Bash => tree_sitter_bash::LANGUAGE,
            Language::Json => tree_sitter_json::LANGUAGE,
            Language::Toml => tree_sitter_toml_ng::LANGUAGE,
            Language::Yaml => tree_sitter_yaml::LANGUAGE,
            Language::Html => tree_sitter_html::LANGUAGE,
            Language::Css => tree_sitter_css::LANGUAGE,
        };
        function.into()
    }
}

/// Well-known file names whose extension (if any) does not say.
fn by_name(name: &str) -> Option<Language> {
    Some(match name {
        "Rakefile" | "Gemfile" | "Guardfile" | "Vagrantfile" | "Podfile" | "Fastfile"
        | "Brewfile" | "Capfile" | "Berksfile" | "config.ru" => Language::Ruby,
        ".bashrc" | ".bash_profile" | ".bash_login" | ".bash_logout" | ".bash_aliases"
        | ".profile" | "PKGBUILD" | "APKBUILD" => Language::Bash,
        "Cargo.lock" | "Pipfile" | "poetry.lock" | "uv.lock" | "Gopkg.lock" => Language::Toml,
        ".babelrc" | ".prettierrc" | ".swcrc" | "composer.lock" | "flake.lock" => Language::Json,
        ".clang-format" | ".clang-tidy" | ".yamllint" => Language::Yaml,
        "SConstruct" | "SConscript" => Language::Python,
        _ => return None,
    })
}

/// The language of a (lowercased) extension.
fn by_extension(extension: &str) -> Option<Language> {
    Some(match extension {
        "rs" => Language::Rust,
        "py" | "pyi" | "pyw" => Language::Python,
        "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
        "ts" | "mts" | "cts" => Language::TypeScript,
        "tsx" => Language::Tsx,
        "go" => Language::Go,
        "java" => Language::Java,
        "c" => Language::C,
        // A header may be C or C++; C++'s grammar takes both (a header C++'s grammar
        // rejects already has an error there, and is not gated).
        "h" | "cc" | "cpp" | "cxx" | "c++" | "hh" | "hpp" | "hxx" | "h++" | "ipp" | "tpp"
        | "inl" => Language::Cpp,
        "cs" => Language::CSharp,
        "rb" | "rake" | "gemspec" | "ru" => Language::Ruby,
        "php" | "phtml" => Language::Php,
        "sh" | "bash" => Language::Bash,
        "json" | "jsonc" | "code-workspace" => Language::Json,
        "toml" => Language::Toml,
        "yml" | "yaml" => Language::Yaml,
        "html" | "htm" | "xhtml" => Language::Html,
        "css" => Language::Css,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::Language;

    #[test]
    fn names_and_extensions() {
        let of = |p| Language::of_path(p).map(Language::name);
        assert_eq!(of("src/main.rs"), Some("rust"));
        assert_eq!(of("a/B.TSX"), Some("tsx"));
        assert_eq!(of("x/Gemfile"), Some("ruby"));
        assert_eq!(of("Cargo.lock"), Some("toml"));
        assert_eq!(of(".github/workflows/ci.yml"), Some("yaml"));
        assert_eq!(of("Makefile"), None);
        assert_eq!(of("README.md"), None);
        assert_eq!(of("noextension"), None);
    }

    #[test]
    fn every_grammar_loads() {
        for language in Language::ALL {
            let mut parser = tree_sitter::Parser::new();
            assert!(
                parser.set_language(&language.grammar()).is_ok(),
                "{}",
                language.name()
            );
        }
    }
}
