"""Packaging for rankmetrics_nb. Edit settings.ini, not this file."""
from configparser import ConfigParser
import setuptools

cfg = ConfigParser(delimiters=['='])
cfg.read('settings.ini', encoding='utf-8')
cfg = cfg['DEFAULT']

expected = ('version description keywords author author_email license git_url lib_name '
            'min_python user').split()
missing = [o for o in expected if o not in cfg]
if missing: raise SystemExit(f"settings.ini is missing: {', '.join(missing)}")

licenses = {'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License')}
statuses = ['Planning', 'Pre-Alpha', 'Alpha', 'Beta', 'Production/Stable', 'Mature', 'Inactive']
lic = licenses[cfg['license'].lower()]
py_versions = '3.11 3.12 3.13'.split()

requirements = cfg.get('requirements', '').split()
plot_requirements = cfg.get('plot_requirements', '').split()
dask_requirements = cfg.get('dask_requirements', '').split()
array_requirements = cfg.get('array_requirements', '').split()
dev_requirements = cfg.get('dev_requirements', '').split()
min_python = cfg['min_python']

setuptools.setup(
    name=cfg['lib_name'],
    version=cfg['version'],
    license=lic[0],
    classifiers=[
        'Development Status :: ' + cfg['status'] + ' - ' + statuses[int(cfg['status'])],
        'Intended Audience :: ' + cfg['audience'].title(),
        'License :: ' + lic[1],
        'Natural Language :: ' + cfg['language'].title(),
        'Topic :: Scientific/Engineering :: Information Analysis',
    ] + ['Programming Language :: Python :: ' + v for v in py_versions[py_versions.index(min_python):]],
    url=cfg['git_url'],
    packages=setuptools.find_packages(include=[cfg['lib_name'], cfg['lib_name'] + '.*']),
    include_package_data=True,
    package_data={cfg['lib_name']: ['data/*']},
    install_requires=requirements,
    extras_require={'plot': plot_requirements, 'dask': dask_requirements, 'array': array_requirements, 'dev': dev_requirements + plot_requirements},
    python_requires='>=' + min_python,
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    zip_safe=False,
    entry_points={
        'console_scripts': cfg.get('console_scripts', '').split(),
        'nbdev': [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"],
    },
)
