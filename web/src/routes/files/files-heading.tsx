import { useTranslation } from 'react-i18next';
import { Breadcrumbs } from '../../components/listing/breadcrumbs';
import { baseName, filesRoute } from '../../lib/paths';

type FilesHeadingProps = {
  path: string;
  onDropItems?: (folder: string, paths: string[]) => void;
};

/** Breadcrumbs and the name of the folder or file on screen. */
export function FilesHeading({ path, onDropItems }: FilesHeadingProps) {
  const { t } = useTranslation();
  return (
    <header className="files__heading">
      <Breadcrumbs path={path} hrefOf={filesRoute} onDropItems={onDropItems} />
      <h1 className="page__title files__title">{baseName(path) || t('files.home')}</h1>
    </header>
  );
}
