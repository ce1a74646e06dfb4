"""BlobDescriptor at pypaimon's module path (``pypaimon.table.row.blob``; docs/blob.md).

A BlobDescriptor names a range of an object (URI, offset, length; length -1 for "to the end").
Its serialized bytes, given as the value of a BLOB column, make the writer copy that range into
the table's `.blob` file (or keep the reference, in a 'blob-descriptor-field' column); reads with
'blob-as-descriptor' return them. The bytes are made and parsed by the C core (cpaimon/blob.h).
"""
from cpaimon import _cpaimon


class BlobDescriptor:
    CURRENT_VERSION = 2
    MAGIC = 0x424C4F4244455343  # "BLOBDESC"

    def __init__(self, uri: str, offset: int, length: int):
        self._uri = uri
        self._offset = offset
        self._length = length
        self._version = self.CURRENT_VERSION

    @property
    def uri(self) -> str:
        return self._uri

    @property
    def offset(self) -> int:
        return self._offset

    @property
    def length(self) -> int:
        return self._length

    @property
    def version(self) -> int:
        return self._version

    def serialize(self) -> bytes:
        return _cpaimon.blob_descriptor_serialize(self._uri, self._offset, self._length)

    @classmethod
    def deserialize(cls, data: bytes) -> "BlobDescriptor":
        uri, offset, length, version = _cpaimon.blob_descriptor_parse(bytes(data))
        d = cls(uri, offset, length)
        d._version = version
        return d

    @classmethod
    def is_blob_descriptor(cls, data) -> bool:
        return isinstance(data, (bytes, bytearray)) and _cpaimon.blob_is_descriptor(bytes(data))

    def __eq__(self, other) -> bool:
        return (isinstance(other, BlobDescriptor) and self._uri == other._uri and
                self._offset == other._offset and self._length == other._length)

    def __hash__(self) -> int:
        return hash((self._uri, self._offset, self._length))

    def __repr__(self) -> str:
        return (f"BlobDescriptor(version={self._version}, uri='{self._uri}', "
                f"offset={self._offset}, length={self._length})")
