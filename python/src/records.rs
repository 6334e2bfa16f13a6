//! Records as Python objects: a [`serde::Serializer`] that builds `dict`, `list`, `str`,
//! `int`, `float`, `bool` and `None` from the library's serde serialization, exactly what
//! `json.loads` makes of the JSON text the CLI writes, keys in the same order.
//!
//! Driving the library's own `Serialize` implementations keeps the records the CLI's by
//! construction. Building the objects directly, instead of printing JSON and parsing it back
//! (or going through `serde_json::Value`), matters for throughput: on a batch of ordinary
//! messages, making the records costs as much as analyzing the messages. `pythonize` does
//! the same in general; it is not used because no release of it supports the PyO3 this crate
//! is built with, and the few dozen lines here cover what the records use.
//!
//! The mapping is serde_json's: a unit variant is its name, a newtype variant or struct
//! variant `{name: value}`, bytes a list of ints, map keys must serialize as strings.

use std::collections::HashMap;
use std::fmt;

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde::Serialize;
use serde::ser::{self, Serializer};

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
