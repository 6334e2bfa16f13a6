//! Records as Python objects: a [`serde::Serializer`] that builds `dict`, `list`, `str`,
//! `int`, `float`, `bool` and `None` from the library's serde serialization, exactly what
//! `json.loads` makes of the JSON text the CLI writes, keys in the same order; and
//! [`Record`], the read-only mapping `mimebase.scan` yields, whose values are built so only
//! when they are read.
//!
//! Driving the library's own `Serialize` implementations keeps the records the CLI's by
//! construction. Building the objects directly, instead of printing JSON and parsing it back
//! (or going through `serde_json::Value`), matters for throughput: on a batch of ordinary
//! messages, making every object of a record costs as much as analyzing the message, which is
//! why a scan's [`Record`] makes only the values that are read. `pythonize` does the same in
//! general; it is not used because no release of it supports the PyO3 this crate is built
//! with, and the few dozen lines here cover what the records use.
//!
//! The mapping is serde_json's: a unit variant is its name, a newtype variant or struct
//! variant `{name: value}`, bytes a list of ints, map keys must serialize as strings.

use std::collections::HashMap;
use std::fmt;

use mimebase::scan::ScanLine;
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyIterator, PyList, PyString, PyType};
use serde::Serialize;
use serde::ser::{self, Impossible, Serializer};

/// `value` as Python objects.
pub(crate) fn to_python<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let mut keys = HashMap::new();
    value
        .serialize(PySerializer {
            py,
            keys: &mut keys,
        })
        .map_err(|error| error.0)
}

/// A failed conversion: the Python exception.
#[derive(Debug)]
pub(crate) struct Error(PyErr);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error(PyValueError::new_err(message.to_string()))
    }
}

impl From<PyErr> for Error {
    fn from(error: PyErr) -> Self {
        Error(error)
    }
}

/// Struct field names as Python strings, made once per record and field: field names are
/// `&'static str`, so the address identifies them.
type Keys<'py> = HashMap<(usize, usize), Bound<'py, PyString>>;

struct PySerializer<'a, 'py> {
    py: Python<'py>,
    keys: &'a mut Keys<'py>,
}

impl<'py> PySerializer<'_, 'py> {
    fn field_name(&mut self, name: &'static str) -> Bound<'py, PyString> {
        let py = self.py;
        self.keys
            .entry((name.as_ptr() as usize, name.len()))
            .or_insert_with(|| PyString::intern(py, name))
            .clone()
    }

    fn reborrow(&mut self) -> PySerializer<'_, 'py> {
        PySerializer {
            py: self.py,
            keys: self.keys,
        }
    }

    /// `{variant: value}`.
    fn variant(
        &mut self,
        variant: &'static str,
        value: Bound<'py, PyAny>,
    ) -> Result<Bound<'py, PyAny>, Error> {
        let dict = PyDict::new(self.py);
        dict.set_item(self.field_name(variant), value)?;
        Ok(dict.into_any())
    }

    /// A number or `bool` as its Python object.
    fn object<T>(self, value: T) -> Result<Bound<'py, PyAny>, Error>
    where
        T: IntoPyObject<'py>,
        PyErr: From<T::Error>,
    {
        Ok(value.into_bound_py_any(self.py)?)
    }
}

impl<'a, 'py> Serializer for PySerializer<'a, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    type SerializeSeq = Seq<'a, 'py>;
    type SerializeTuple = Seq<'a, 'py>;
    type SerializeTupleStruct = Seq<'a, 'py>;
    type SerializeTupleVariant = Seq<'a, 'py>;
    type SerializeMap = Map<'a, 'py>;
    type SerializeStruct = Map<'a, 'py>;
    type SerializeStructVariant = Map<'a, 'py>;

    fn serialize_bool(self, value: bool) -> Result<Self::Ok, Error> {
        self.object(value)
    }
    fn serialize_i8(self, value: i8) -> Result<Self::Ok, Error> {
        self.object(value)
    }
    fn serialize_i16(self, value: i16) -> Result<Self::Ok, Error> {
        self.object(value)
    }
    fn serialize_i32(self, value: i32) -> Result<Self::Ok, Error> {
        self.object(value)
    }
    fn serialize_i64(self, value: i64) -> Result<Self::Ok, Error> {
        self.object(value)
    }
    fn serialize_u8(self, value: u8) -> Result<Self::Ok, Error> {
        self.object(value)
    }
    fn serialize_u16(self, value: u16) -> Result<Self::Ok, Error> {
        self.object(value)
    }
    fn serialize_u32(self, value: u32) -> Result<Self::Ok, Error> {
        self.object(value)
    }
    fn serialize_u64(self, value: u64) -> Result<Self::Ok, Error> {
        self.object(value)
    }
    fn serialize_f32(self, value: f32) -> Result<Self::Ok, Error> {
        self.object(f64::from(value))
    }
    fn serialize_f64(self, value: f64) -> Result<Self::Ok, Error> {
        self.object(value)
    }
    fn serialize_char(self, value: char) -> Result<Self::Ok, Error> {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, value: &str) -> Result<Self::Ok, Error> {
        Ok(PyString::new(self.py, value).into_any())
    }
    fn serialize_bytes(self, value: &[u8]) -> Result<Self::Ok, Error> {
        Ok(PyList::new(self.py, value)?.into_any())
    }
    fn serialize_none(self) -> Result<Self::Ok, Error> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Self::Ok, Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Self::Ok, Error> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Self::Ok, Error> {
        self.serialize_none()
    }
    fn serialize_unit_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Self::Ok, Error> {
        Ok(self.field_name(variant).into_any())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Self::Ok, Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Self::Ok, Error> {
        let inner = value.serialize(self.reborrow())?;
        self.variant(variant, inner)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Seq<'a, 'py>, Error> {
        Ok(Seq {
            list: PyList::empty(self.py),
            serializer: self,
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'a, 'py>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Seq<'a, 'py>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Seq<'a, 'py>, Error> {
        let mut seq = self.serialize_seq(Some(len))?;
        seq.variant = Some(variant);
        Ok(seq)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Map<'a, 'py>, Error> {
        Ok(Map {
            dict: PyDict::new(self.py),
            serializer: self,
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Map<'a, 'py>, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Map<'a, 'py>, Error> {
        let mut map = self.serialize_map(Some(len))?;
        map.variant = Some(variant);
        Ok(map)
    }
}

/// A list being filled (for a tuple variant, wrapped in `{variant: list}` at the end).
pub(crate) struct Seq<'a, 'py> {
    serializer: PySerializer<'a, 'py>,
    list: Bound<'py, PyList>,
    variant: Option<&'static str>,
}

impl<'py> Seq<'_, 'py> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let item = value.serialize(self.serializer.reborrow())?;
        self.list.append(item)?;
        Ok(())
    }

    fn finish(mut self) -> Result<Bound<'py, PyAny>, Error> {
        match self.variant {
            Some(variant) => self.serializer.variant(variant, self.list.into_any()),
            None => Ok(self.list.into_any()),
        }
    }
}

impl<'py> ser::SerializeSeq for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Self::Ok, Error> {
        self.finish()
    }
}

impl<'py> ser::SerializeTuple for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Self::Ok, Error> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleStruct for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Self::Ok, Error> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleVariant for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Self::Ok, Error> {
        self.finish()
    }
}

/// A dict being filled (for a struct variant, wrapped in `{variant: dict}` at the end).
pub(crate) struct Map<'a, 'py> {
    serializer: PySerializer<'a, 'py>,
    dict: Bound<'py, PyDict>,
    /// A key given by `serialize_key`, waiting for its value.
    key: Option<Bound<'py, PyAny>>,
    variant: Option<&'static str>,
}

impl<'py> Map<'_, 'py> {
    fn finish(mut self) -> Result<Bound<'py, PyAny>, Error> {
        match self.variant {
            Some(variant) => self.serializer.variant(variant, self.dict.into_any()),
            None => Ok(self.dict.into_any()),
        }
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        let key = self.serializer.field_name(key);
        let value = value.serialize(self.serializer.reborrow())?;
        self.dict.set_item(key, value)?;
        Ok(())
    }
}

impl<'py> ser::SerializeMap for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        let key = key.serialize(self.serializer.reborrow())?;
        if !key.is_instance_of::<PyString>() {
            return Err(ser::Error::custom("a map key must be a string"));
        }
        self.key = Some(key);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| <Error as ser::Error>::custom("a map value without a key"))?;
        let value = value.serialize(self.serializer.reborrow())?;
        self.dict.set_item(key, value)?;
        Ok(())
    }
    fn end(self) -> Result<Self::Ok, Error> {
        self.finish()
    }
}

impl<'py> ser::SerializeStruct for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<Self::Ok, Error> {
        self.finish()
    }
}

impl<'py> ser::SerializeStructVariant for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<Self::Ok, Error> {
        self.finish()
    }
}

/// One record of `mimebase.scan`: a line of `mimebase scan` as a read-only mapping
/// (registered as a `collections.abc.Mapping`), equal to the `dict` `json.loads` makes of the
/// line. Each value is made into Python objects when it is first read; lists and dicts are
/// kept, so that reading one again gives the same object.
#[pyclass(module = "mimebase", frozen, mapping)]
pub(crate) struct Record {
    line: ScanLine<'static>,
    /// The lists and dicts made so far, by key.
    made: PyOnceLock<Py<PyDict>>,
}

impl Record {
    pub(crate) fn new(line: ScanLine<'static>) -> Self {
        Record {
            line,
            made: PyOnceLock::new(),
        }
    }

    /// The value of `key`, made now unless it was made before; `None` when the record has no
    /// such key.
    fn value<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyString>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        if key.as_any().eq(intern(py, "type"))? {
            // Read for every record by most loops: no pass over the record for it.
            match &self.line {
                ScanLine::Message { .. } => return Ok(Some(intern(py, "message"))),
                ScanLine::Error { .. } => return Ok(Some(intern(py, "error"))),
                _ => {}
            }
        }
        if let Some(made) = self.made.get(py)
            && let Some(value) = made.bind(py).get_item(key)?
        {
            return Ok(Some(value));
        }
        let Some(value) = field(py, &self.line, key)? else {
            return Ok(None);
        };
        if value.is_instance_of::<PyList>() || value.is_instance_of::<PyDict>() {
            let made = self.made.get_or_init(py, || PyDict::new(py).unbind());
            made.bind(py).set_item(key, &value)?;
        }
        Ok(Some(value))
    }

    /// The record's keys, in the order of the line.
    fn keys_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut top = TopLevel::new(py, None);
        serialize_top(&self.line, &mut top)?;
        PyList::new(py, top.names)
    }

    /// `collections.abc.<name>(self)`.
    fn view<'py>(slf: &Bound<'py, Self>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("collections.abc")?
            .getattr(name)?
            .call1((slf,))
    }
}

#[pymethods]
impl Record {
    /// Unhashable, as a `dict` is.
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let found = match key.cast::<PyString>() {
            Ok(name) => self.value(py, name)?,
            Err(_) => None,
        };
        found.ok_or_else(|| PyKeyError::new_err(key.clone().unbind()))
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.keys_list(py)?.len())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.keys_list(py)?.try_iter()
    }

    fn __contains__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.keys_list(py)?.contains(key)
    }

    /// ``record[key]``, or ``default`` when there is no such key.
    #[pyo3(signature = (key, default = None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let found = match key.cast::<PyString>() {
            Ok(name) => self.value(py, name)?,
            Err(_) => None,
        };
        Ok(found
            .or(default)
            .unwrap_or_else(|| py.None().into_bound(py)))
    }

    /// The keys, in the order of the line (a ``KeysView``).
    fn keys<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Record::view(slf, "KeysView")
    }

    /// The values, each made on first read (a ``ValuesView``).
    fn values<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Record::view(slf, "ValuesView")
    }

    /// The ``(key, value)`` pairs (an ``ItemsView``).
    fn items<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Record::view(slf, "ItemsView")
    }

    /// The record as a new ``dict`` of new lists and dicts: what ``json.loads`` makes of
    /// ``to_json()``, and what ``scan`` yielded before it yielded records.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.line)
    }

    /// The record's line of ``mimebase scan``, without the line break: JSON, the same bytes
    /// the command writes (``json.dumps`` takes a ``dict``, not a record).
    fn to_json(&self) -> PyResult<String> {
        let mut json = Vec::new();
        self.line.write_json(&mut json);
        String::from_utf8(json).map_err(|error| PyValueError::new_err(error.to_string()))
    }

    /// Equal to another record with the same line, and to a mapping (a ``dict``) with the same
    /// keys and equal values.
    fn __richcmp__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
        op: CompareOp,
    ) -> PyResult<Bound<'py, PyAny>> {
        let equal = match op {
            CompareOp::Eq | CompareOp::Ne => self.equals(py, other)?,
            _ => None,
        };
        Ok(match equal {
            Some(equal) => (equal == matches!(op, CompareOp::Eq)).into_bound_py_any(py)?,
            None => py.NotImplemented().into_bound(py),
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let repr = |text: &str| -> PyResult<String> {
            Ok(PyString::new(py, text).repr()?.to_cow()?.into_owned())
        };
        Ok(match &self.line {
            ScanLine::Message { source, report } => format!(
                "<mimebase.Record type='message' path={} offset={} length={} entities={} urls={} diagnostics={}>",
                repr(&source.path)?,
                optional(source.offset),
                optional(source.length),
                report.entities.len(),
                report.urls.len(),
                report.diagnostics.len()
            ),
            ScanLine::Error {
                source,
                kind,
                message,
            } => format!(
                "<mimebase.Record type='error' path={} kind={} message={}>",
                repr(&source.path)?,
                repr(&crate::wire_name(kind))?,
                repr(message)?
            ),
            _ => "<mimebase.Record>".to_owned(),
        })
    }
}

impl Record {
    /// Whether the record equals `other`; `None` when `other` is not a mapping.
    fn equals(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Option<bool>> {
        if let Ok(other) = other.cast::<Record>() {
            return Ok(Some(self.line == other.get().line));
        }
        static MAPPING: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        if !other.is_instance(MAPPING.import(py, "collections.abc", "Mapping")?)? {
            return Ok(None);
        }
        let keys = self.keys_list(py)?;
        if other.len()? != keys.len() {
            return Ok(Some(false));
        }
        for key in keys.iter() {
            if !other.contains(&key)? {
                return Ok(Some(false));
            }
            let ours = self.value(py, key.cast::<PyString>()?)?;
            let equal = match ours {
                Some(ours) => ours.eq(other.get_item(&key)?)?,
                None => false,
            };
            if !equal {
                return Ok(Some(false));
            }
        }
        Ok(Some(true))
    }
}

/// A number or `None`, as Python writes it.
fn optional(value: Option<u64>) -> String {
    value.map_or_else(|| "None".to_owned(), |value| value.to_string())
}

/// An interned Python string: the same object for every record.
fn intern<'py>(py: Python<'py>, text: &'static str) -> Bound<'py, PyAny> {
    PyString::intern(py, text).into_any()
}

/// The value of `key` in the top-level map (or struct) of `value`'s serialization, made into
/// Python objects; the other entries are passed over without being made. `None` when there
/// is no such key.
fn field<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
    key: &Bound<'py, PyString>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let mut top = TopLevel::new(py, Some(key));
    serialize_top(value, &mut top)?;
    Ok(top.found)
}

fn serialize_top<T: Serialize + ?Sized>(value: &T, top: &mut TopLevel<'_, '_>) -> PyResult<()> {
    value.serialize(top).map_err(|error| error.0)
}

/// A pass over the entries of a record: the value of the key `wanted`, or (for `None`) every
/// key.
struct TopLevel<'a, 'py> {
    py: Python<'py>,
    wanted: Option<&'a Bound<'py, PyString>>,
    found: Option<Bound<'py, PyAny>>,
    names: Vec<Bound<'py, PyAny>>,
    /// The key given by `serialize_key`, waiting for its value.
    pending: Option<Bound<'py, PyAny>>,
    keys: Keys<'py>,
}

impl<'a, 'py> TopLevel<'a, 'py> {
    fn new(py: Python<'py>, wanted: Option<&'a Bound<'py, PyString>>) -> Self {
        TopLevel {
            py,
            wanted,
            found: None,
            names: Vec::new(),
            pending: None,
            keys: HashMap::new(),
        }
    }

    /// The key as a Python string.
    fn key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<Bound<'py, PyAny>, Error> {
        let key = key.serialize(PySerializer {
            py: self.py,
            keys: &mut self.keys,
        })?;
        if !key.is_instance_of::<PyString>() {
            return Err(ser::Error::custom("a map key must be a string"));
        }
        Ok(key)
    }

    /// One entry: its value made when it is the one wanted, its key kept when every key is.
    fn entry<V: Serialize + ?Sized>(
        &mut self,
        key: Bound<'py, PyAny>,
        value: &V,
    ) -> Result<(), Error> {
        match self.wanted {
            None => self.names.push(key),
            Some(wanted) => {
                if self.found.is_none() && key.eq(wanted.as_any())? {
                    self.found = Some(value.serialize(PySerializer {
                        py: self.py,
                        keys: &mut self.keys,
                    })?);
                }
            }
        }
        Ok(())
    }
}

/// Only a map or a struct makes a record.
fn not_a_record() -> Error {
    ser::Error::custom("a record serializes as a map")
}

impl<'a, 'b, 'py> Serializer for &'a mut TopLevel<'b, 'py> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bool(self, _: bool) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_i8(self, _: i8) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_i16(self, _: i16) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_i32(self, _: i32) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_i64(self, _: i64) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_u8(self, _: u8) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_u16(self, _: u16) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_u32(self, _: u32) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_u64(self, _: u64) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_f32(self, _: f32) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_f64(self, _: f64) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_char(self, _: char) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_str(self, _: &str) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_none(self) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(not_a_record())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(not_a_record())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(not_a_record())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(not_a_record())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(not_a_record())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Error> {
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(not_a_record())
    }
}

impl ser::SerializeMap for &mut TopLevel<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<(), Error> {
        self.pending = Some(self.key(key)?);
        Ok(())
    }
    fn serialize_value<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), Error> {
        let key = self
            .pending
            .take()
            .ok_or_else(|| <Error as ser::Error>::custom("a map value without a key"))?;
        self.entry(key, value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), Error> {
        let key = self.key(key)?;
        self.entry(key, value)
    }
    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}

impl ser::SerializeStruct for &mut TopLevel<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<V: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), Error> {
        let key = self.key(key)?;
        self.entry(key, value)
    }
    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}
