//! The file's indentation for lines the caller indented its own way, learned per level
//! from the lines both the caller's `oldText` and the file hold: a known indentation maps
//! as the pairs show it, a deeper one as its known part plus each further level in the
//! file's unit (a tab for four spaces, four spaces for two, spaces for a tab). Where a
//! level cannot be told, nothing is guessed.

use std::collections::HashMap;

/// The caller's indentation → the file's, per level.
pub(super) struct Indent {
    /// The caller's indentation → the file's, for each that the pairs show one way only.
    map: HashMap<String, String>,
    /// Indentations the pairs show two ways: a new line indented so is in doubt.
    doubtful: Vec<String>,
    /// One level of the caller's (a tab, or a space) → the file's, learned from two
    /// pairs that differ by whole levels, or from one pair of pure levels.
    units: HashMap<char, String>,
    /// Whether every pair only adds or takes away a common prefix (the caller dedented or
    /// indented the passage as a whole), so a deeper level is written as the caller did.
    shifted: bool,
    /// The smallest step between the file's space indentations in the passage, if any.
    file_step: Option<usize>,
    /// Whether the file's indented lines in the passage all start with spaces, or all
    /// with tabs.
    file_spaces: bool,
    file_tabs: bool,
}

/// A line's leading whitespace.
pub(super) fn leading(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// `text` as `n` copies of one character, if it is.
fn repeated(text: &str) -> Option<(char, usize)> {
    let first = text.chars().next()?;
    text.chars()
        .all(|c| c == first)
        .then(|| (first, text.chars().count()))
}

/// The caller's indentation → the file's, as the paired lines show it, and the
/// indentations in doubt: those the pairs show two ways, and of two the file writes
/// alike, the one it writes otherwise than the caller (or both).
fn paired_indents(
    base: &[&str],
    ours: &[&str],
    paired: &[Option<usize>],
) -> (HashMap<String, String>, Vec<String>) {
    let mut map: HashMap<String, String> = HashMap::new();
    let mut doubtful = Vec::new();
    for (i, j) in paired.iter().enumerate() {
        let Some(j) = j else { continue };
        if base[i].trim().is_empty() || ours[*j].trim().is_empty() {
            continue;
        }
        let (from, to) = (leading(base[i]), leading(ours[*j]));
        match map.get(from) {
            Some(known) if known != to => doubtful.push(from.to_owned()),
            Some(_) => {}
            None => {
                map.insert(from.to_owned(), to.to_owned());
            }
        }
    }
    // Two of the caller's indentations the file writes alike: one was typed off. The
    // one the file writes otherwise than the caller (or both, where the file writes
    // each otherwise) tells nothing of a new line indented so.
    let off: Vec<String> = map
        .iter()
        .filter(|(from, to)| from != to && map.iter().any(|(f, t)| f != *from && t == *to))
        .map(|(from, _)| from.clone())
        .collect();
    doubtful.extend(off);
    (map, doubtful)
}

/// Whether every pair of `map` shifts by one and the same prefix — what the file adds
/// before the caller's indentation (or the caller before the file's): a passage moved as
/// a whole.
fn shifted(map: &HashMap<String, String>) -> bool {
    let shifts: Vec<Option<(bool, &str)>> = map
        .iter()
        .map(|(from, to)| {
            if let Some(added) = to.strip_suffix(from.as_str()) {
                Some((true, added))
            } else {
                from.strip_suffix(to.as_str()).map(|taken| (false, taken))
            }
        })
        .collect();
    shifts.iter().all(|s| s.is_some() && *s == shifts[0])
}

/// The smallest step between the file's space indentations among `ours` (its indented
/// lines' `indents`), a line not indented counting as level 0.
fn file_step(ours: &[&str], indents: &[&str]) -> Option<usize> {
    let mut steps: Vec<usize> = indents
        .iter()
        .filter(|l| l.chars().all(|c| c == ' '))
        .map(|l| l.len())
        .collect();
    // Where a line of the passage is not indented, its level counts too.
    if ours
        .iter()
        .any(|l| !l.trim().is_empty() && leading(l).is_empty())
    {
        steps.push(0);
    }
    steps.sort_unstable();
    steps.dedup();
    steps.windows(2).map(|w| w[1] - w[0]).min()
}

impl Indent {
    /// The file's indentation for the caller's, learned from the base lines (`oldText`)
    /// `paired` with the file's lines `ours`, and from how `ours` are indented.
    pub(super) fn learn(base: &[&str], ours: &[&str], paired: &[Option<usize>]) -> Indent {
        let (map, doubtful) = paired_indents(base, ours, paired);
        let shifted = shifted(&map);
        let mut units = units(&map);
        // A unit must give back every pair of pure levels it speaks for (a line typed off
        // by part of a level tells a unit its other lines belie): one that does not is
        // not known. A passage moved as a whole keeps the caller's deeper levels anyway.
        if !shifted {
            let widths = widths(&map);
            units.retain(|c, unit| {
                map.iter().all(|(from, to)| match repeated(from) {
                    Some((d, n)) if d == *c && !doubtful.contains(from) => {
                        let w = widths.get(c).copied().unwrap_or(1);
                        n % w == 0 && *to == unit.repeat(n / w)
                    }
                    _ => true,
                })
            });
        }
        let indents: Vec<&str> = ours
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| leading(l))
            .filter(|l| !l.is_empty())
            .collect();
        Indent {
            file_step: file_step(ours, &indents),
            map,
            doubtful,
            units,
            shifted,
            file_spaces: !indents.is_empty() && indents.iter().all(|l| !l.contains('\t')),
            file_tabs: !indents.is_empty() && indents.iter().all(|l| l.starts_with('\t')),
        }
    }

    /// A new line of the caller's below a line the caller indented `above.0` and the
    /// file `above.1`: where the file's level for the new line's indentation is not
    /// known one way, and it opens one level deeper than the line above, it is that
    /// line's in the file and one level more — in the unit the pairs show, or else the
    /// one step the file's own lines show; otherwise as [`Indent::apply`] says.
    pub(super) fn apply_below(
        &self,
        line: &str,
        above: Option<&(String, String)>,
    ) -> Option<String> {
        let indent = leading(line);
        let known = self.map.contains_key(indent) && !self.doubtful.iter().any(|d| d == indent);
        if let (false, false, Some((from, to))) = (known, line.trim().is_empty(), above) {
            if let Some(deeper) = indent.strip_prefix(from.as_str()).filter(|d| !d.is_empty()) {
                let one_step = match (repeated(deeper), self.file_step) {
                    (Some(('\t', 1)), _) if self.file_tabs => Some(deeper.to_owned()),
                    (Some((' ', n)), Some(step)) if n == step && self.file_spaces => {
                        Some(deeper.to_owned())
                    }
                    _ => None,
                };
                if let Some(rest) = self.levels(deeper).filter(|_| !self.shifted).or(one_step) {
                    return Some(format!("{to}{rest}{}", &line[indent.len()..]));
                }
            }
        }
        self.apply(line)
    }

    /// A new line of the caller's, indented as the file indents.
    pub(super) fn apply(&self, line: &str) -> Option<String> {
        if line.trim().is_empty() {
            return Some(line.to_owned());
        }
        let indent = leading(line);
        if self.doubtful.iter().any(|d| d == indent) {
            return None;
        }
        if let Some(to) = self.map.get(indent) {
            return Some(format!("{to}{}", &line[indent.len()..]));
        }
        if self.map.is_empty() || self.map.iter().all(|(from, to)| from == to) {
            return Some(line.to_owned());
        }
        // The longest known indentation this one extends, and each further level as the
        // file would write it.
        let (from, to) = self
            .map
            .iter()
            .filter(|(from, _)| indent.starts_with(from.as_str()) && !self.doubtful.contains(*from))
            .max_by_key(|(from, _)| from.len())?;
        let deeper = &indent[from.len()..];
        let rest = self
            .levels(deeper)
            .or_else(|| self.as_written(from, to, deeper))?;
        Some(format!("{to}{rest}{}", &line[indent.len()..]))
    }

    /// Further levels written as the caller wrote them, where the level they extend is
    /// written alike by the caller and the file (the caller indents as the file does
    /// there; some other line of its was typed off) and they are whole levels of the
    /// file's own: its characters, and, in spaces, a multiple of its step.
    fn as_written(&self, from: &str, to: &str, deeper: &str) -> Option<String> {
        if from != to {
            return None;
        }
        let (c, n) = repeated(deeper)?;
        let fits = match (c, self.file_step) {
            ('\t', _) => !self.file_spaces,
            (' ', Some(step)) => !self.file_tabs && n % step == 0,
            (' ', None) => !self.file_tabs && n % 2 == 0,
            _ => false,
        };
        fits.then(|| deeper.to_owned())
    }

    /// Further levels of the caller's indentation as the file writes them.
    fn levels(&self, rest: &str) -> Option<String> {
        if rest.is_empty() || self.shifted {
            return Some(rest.to_owned());
        }
        let mut out = String::new();
        let mut chars = rest.chars().peekable();
        while let Some(c) = chars.next() {
            let unit = self.units.get(&c)?;
            // A unit of several characters (two spaces for a level) takes them together.
            let width = self.width(c);
            for _ in 1..width {
                chars.next_if_eq(&c)?;
            }
            out.push_str(unit);
        }
        Some(out)
    }

    /// How many of the caller's characters `c` make one level.
    fn width(&self, c: char) -> usize {
        widths(&self.map).get(&c).copied().unwrap_or(1)
    }
}

/// One level of the caller's → the file's, from the pairs: where two pairs differ by whole
/// levels on both sides (`\t` → 4 spaces and `\t\t` → 8), the difference; else, from a pair
/// of pure levels (3 tabs → 12 spaces), its ratio. Conflicting evidence gives none.
fn units(map: &HashMap<String, String>) -> HashMap<char, String> {
    let widths = widths(map);
    let mut units: HashMap<char, Option<String>> = HashMap::new();
    let pairs: Vec<(&String, &String)> = map.iter().collect();
    for &(f1, t1) in &pairs {
        for &(f2, t2) in &pairs {
            let (Some(s), Some(u)) = (f2.strip_prefix(f1.as_str()), t2.strip_prefix(t1.as_str()))
            else {
                continue;
            };
            if let (Some((c, n)), Some((d, m))) = (repeated(s), repeated(u)) {
                let w = widths.get(&c).copied().unwrap_or(1);
                if n % w == 0 && m % (n / w) == 0 {
                    note(&mut units, c, d.to_string().repeat(m / (n / w)));
                }
            }
        }
    }
    // Pairs of pure levels, where nothing above told: all of them must tell one unit (a
    // line the caller indented otherwise than its others tells another, and then none).
    let mut pure: HashMap<char, Option<String>> = HashMap::new();
    for &(from, to) in &pairs {
        if let (Some((c, n)), Some((d, m))) = (repeated(from), repeated(to)) {
            let w = widths.get(&c).copied().unwrap_or(1);
            if n % w == 0 && m % (n / w) == 0 {
                note(&mut pure, c, d.to_string().repeat(m / (n / w)));
            } else {
                pure.insert(c, None);
            }
        }
    }
    for (c, unit) in pure {
        units.entry(c).or_insert(unit);
    }
    units
        .into_iter()
        .filter_map(|(c, unit)| Some((c, unit?)))
        .collect()
}

/// Notes `unit` as one level of `c`; a second, other unit makes `c` unknown.
fn note(units: &mut HashMap<char, Option<String>>, c: char, unit: String) {
    units
        .entry(c)
        .and_modify(|known| {
            if known.as_ref() != Some(&unit) {
                *known = None;
            }
        })
        .or_insert(Some(unit));
}

/// How many of the caller's spaces make one level: the smallest step between the
/// caller's space indentations (2 or 4, or 1 when they cannot tell), and 1 for a tab.
fn widths(map: &HashMap<String, String>) -> HashMap<char, usize> {
    let mut spaces: Vec<usize> = map
        .keys()
        .filter(|from| !from.is_empty() && from.chars().all(|c| c == ' '))
        .map(String::len)
        .collect();
    spaces.push(0);
    spaces.sort_unstable();
    spaces.dedup();
    let step = spaces.windows(2).map(|w| w[1] - w[0]).min().unwrap_or(1);
    HashMap::from([(' ', step.max(1)), ('\t', 1)])
}

#[cfg(test)]
mod tests {
    use super::Indent;

    fn learned(pairs: &[(&str, &str)]) -> Indent {
        let base: Vec<String> = pairs.iter().map(|(f, _)| format!("{f}x")).collect();
        let ours: Vec<String> = pairs.iter().map(|(_, t)| format!("{t}x")).collect();
        let base: Vec<&str> = base.iter().map(String::as_str).collect();
        let ours: Vec<&str> = ours.iter().map(String::as_str).collect();
        let paired: Vec<Option<usize>> = (0..pairs.len()).map(Some).collect();
        Indent::learn(&base, &ours, &paired)
    }

    #[test]
    fn a_deeper_level_typed_with_tabs_is_written_with_the_file_s_spaces() {
        let indent = learned(&[("\t\t\t", "            ")]);
        assert_eq!(
            indent.apply("\t\t\t\tdays = t").unwrap(),
            "                days = t"
        );
        let indent = learned(&[("\t", "    "), ("\t\t", "        ")]);
        assert_eq!(indent.apply("\t\t\tx").unwrap(), "            x");
    }

    #[test]
    fn a_unit_of_two_becomes_a_unit_of_four() {
        let indent = learned(&[("  ", "    "), ("    ", "        ")]);
        assert_eq!(indent.apply("      x").unwrap(), "            x");
    }

    #[test]
    fn a_passage_moved_as_a_whole_keeps_the_caller_s_deeper_levels() {
        let indent = learned(&[("", "    "), ("    ", "        ")]);
        assert_eq!(indent.apply("        x").unwrap(), "            x");
    }

    #[test]
    fn a_line_indented_otherwise_than_its_others_tells_no_unit() {
        // The second line typed two spaces short: four spaces for two, or for four? Only
        // where the level extended is written alike by both (and the file's step is
        // known) are further levels taken as written.
        let indent = learned(&[("  ", "      "), ("    ", "      ")]);
        assert_eq!(indent.apply("        x"), None);
        let indent = learned(&[("  ", "    "), ("    ", "    "), ("", "")]);
        assert_eq!(indent.apply("        x").unwrap(), "        x");
        // Not a whole level of the file's (a step of four).
        assert_eq!(indent.apply("      x"), None);
        // A tab in a passage the file indents with spaces.
        assert_eq!(indent.apply("    \tx"), None);
    }

    #[test]
    fn a_unit_one_line_typed_off_tells_is_not_taken() {
        // The second line six spaces for eight: two spaces are not a level of four here,
        // as the lines at four show; a new level below a line at four is four more.
        let indent = learned(&[("    ", "    "), ("      ", "        ")]);
        assert_eq!(
            indent
                .apply_below("        x", Some(&("    ".to_owned(), "    ".to_owned())))
                .unwrap(),
            "        x"
        );
    }

    #[test]
    fn a_level_that_cannot_be_told_is_not_guessed() {
        // Three tabs for ten spaces: no whole unit.
        let indent = learned(&[("\t\t\t", "          ")]);
        assert_eq!(indent.apply("\t\t\t\tx"), None);
    }
}
