//! The arguments of `analyze`, `rewrite`, `resolve` and `scan`, read so that every error
//! names its argument first: `TypeError` for a value of the wrong type
//! (`retrieval_url: expected str or None, got int`), `ValueError` for one out of range
//! (`max_urls: must be at least 0, got -1`) or not one of the names
//! (`resolver: unknown value …`). Each function here is a `from_py_with` of one argument.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use mimebase::{Profile, Resolver};

/// The name of `value`'s type, for an error message.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |name| name.to_string())
}

/// A `str` argument `name`.
fn string(value: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    let Ok(text) = value.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected str, got {}",
            type_name(value)
        )));
    };
    text.extract::<String>().map_err(|_| {
        PyValueError::new_err(format!(
            "{name}: not encodable as UTF-8 (it holds a lone surrogate)"
        ))
    })
}

/// An `int` argument `name` from `least` to `most` (`bool`, an `int` to Python, is refused).
fn count(value: &Bound<'_, PyAny>, name: &str, least: u64, most: u64) -> PyResult<u64> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected int, got {}",
            type_name(value)
        )));
    }
    match value.extract::<u64>() {
        Ok(number) if (least..=most).contains(&number) => Ok(number),
        Ok(number) if number > most => Err(too_large(value, name, most)),
        Ok(_) => Err(too_small(value, name, least)),
        Err(_) if value.lt(0)? => Err(too_small(value, name, least)),
        Err(_) => Err(too_large(value, name, most)),
    }
}

fn too_small(value: &Bound<'_, PyAny>, name: &str, least: u64) -> PyErr {
    PyValueError::new_err(format!("{name}: must be at least {least}, got {value}"))
}

fn too_large(value: &Bound<'_, PyAny>, name: &str, most: u64) -> PyErr {
    PyValueError::new_err(format!("{name}: must be at most {most}, got {value}"))
}

/// `retrieval_url`: a `str` or `None`.
pub(crate) fn retrieval_url(value: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if value.is_none() {
        return Ok(None);
    }
    if !value.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "retrieval_url: expected str or None, got {}",
            type_name(value)
        )));
    }
    string(value, "retrieval_url").map(Some)
}

/// `resolver`: a name of [`Resolver::NAMES`].
pub(crate) fn resolver(value: &Bound<'_, PyAny>) -> PyResult<Resolver> {
    let name = string(value, "resolver")?;
    name.parse()
        .map_err(|_| unknown_value("resolver", &name, Resolver::NAMES))
}

/// `profile`: a name of [`Profile::NAMES`].
pub(crate) fn profile(value: &Bound<'_, PyAny>) -> PyResult<Profile> {
    let name = string(value, "profile")?;
    name.parse()
        .map_err(|_| unknown_value("profile", &name, Profile::NAMES))
}

/// `max_message_bytes`: an `int` from 0.
pub(crate) fn max_message_bytes(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    count(value, "max_message_bytes", 0, u64::MAX)
}

/// `max_urls`: an `int` from 0.
pub(crate) fn max_urls(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size(value, "max_urls")
}

/// `max_depth`: an `int` from 0.
pub(crate) fn max_depth(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size(value, "max_depth")
}

/// `max_entities`: `None` (the default that follows each message's size) or an `int` from 0.
pub(crate) fn max_entities(value: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if value.is_none() {
        return Ok(None);
    }
    size(value, "max_entities").map(Some)
}

/// `max_encoded_levels`: an `int` from 0.
pub(crate) fn max_encoded_levels(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size(value, "max_encoded_levels")
}

/// The argument `name`: an `int` from 0, as a `usize` (a larger one is `usize::MAX`, which no
/// count reaches).
fn size(value: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    let most = u64::try_from(usize::MAX).unwrap_or(u64::MAX);
    let n = count(value, name, 0, most)?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// `text_links`: a `bool` (an `int` is refused, so that a count passed by mistake is caught).
pub(crate) fn text_links(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    flag(value, "text_links")
}

/// `file_links`: a `bool`, as `text_links`.
pub(crate) fn file_links(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    flag(value, "file_links")
}

/// The argument `name`: a `bool` (an `int` is refused, so that a count passed by mistake is
/// caught).
fn flag(value: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    match value.cast::<PyBool>() {
        Ok(flag) => Ok(flag.is_true()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name}: expected bool, got {}",
            type_name(value)
        ))),
    }
}

/// `jobs`: `None` or an `int` from 1.
pub(crate) fn jobs(value: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if value.is_none() {
        return Ok(None);
    }
    let most = u64::try_from(usize::MAX).unwrap_or(u64::MAX);
    let jobs = count(value, "jobs", 1, most)?;
    Ok(Some(usize::try_from(jobs).unwrap_or(usize::MAX)))
}

/// `base` of `resolve`: a `str`.
pub(crate) fn base(value: &Bound<'_, PyAny>) -> PyResult<String> {
    string(value, "base")
}

/// `reference` of `resolve`: a `str`.
pub(crate) fn reference(value: &Bound<'_, PyAny>) -> PyResult<String> {
    string(value, "reference")
}

/// The `ValueError` for an option value that is not one of `names`.
fn unknown_value(option: &str, value: &str, names: &[&str]) -> PyErr {
    let expected = names
        .iter()
        .map(|name| format!("{name:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    PyValueError::new_err(format!(
        "{option}: unknown value {value:?}; expected one of {expected}"
    ))
}
