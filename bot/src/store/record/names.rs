//! Values a record stores by name rather than as serde would by default: colours, bot
//! levels and game kinds, as format 1 began to write them.

/// A colour stored in lower case (`white`, `black`), as format 1 stored its sides.
pub(super) mod color_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use stonemate_engine::Color;

    #[derive(serde::Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Stored {
        White,
        Black,
    }

    pub fn serialize<S: Serializer>(color: &Option<Color>, serializer: S) -> Result<S::Ok, S::Error> {
        let stored = color.map(|color| if color == Color::White { Stored::White } else { Stored::Black });
        serde::Serialize::serialize(&stored, serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Color>, D::Error> {
        let stored = Option::<Stored>::deserialize(deserializer)?;
        Ok(stored.map(|stored| if matches!(stored, Stored::White) { Color::White } else { Color::Black }))
    }
}

/// A bot level stored by its name (`easy`, `medium`, `hard`).
pub(super) mod level_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use stonemate_ai::Level;

    // `serde(with)` hands the field by reference.
    #[allow(clippy::ref_option)]
    pub fn serialize<S: Serializer>(level: &Option<Level>, serializer: S) -> Result<S::Ok, S::Error> {
        match level {
            Some(level) => serializer.serialize_some(level.name()),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Level>, D::Error> {
        Option::<String>::deserialize(deserializer)?.map(|name| name.parse().map_err(D::Error::custom)).transpose()
    }
}

/// A game kind stored by its name (`go`, `chego`).
pub(crate) mod kind_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use stonemate_engine::GameKind;

    pub fn serialize<S: Serializer>(kind: &GameKind, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(kind.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<GameKind, D::Error> {
        String::deserialize(deserializer)?.parse().map_err(D::Error::custom)
    }
}
